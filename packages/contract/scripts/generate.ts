/**
 * Writes the OpenAPI document and the alert JSON Schema from the contract's zod schemas.
 * `--check` writes nothing and exits 1 when a committed file differs from what the code gives.
 */
import { GENERATE_COMMAND, generatedFiles } from '../src/openapi/generated-files';
import { writeGeneratedFiles } from './write-generated-files';

writeGeneratedFiles(generatedFiles(), GENERATE_COMMAND, process.argv.includes('--check'));
