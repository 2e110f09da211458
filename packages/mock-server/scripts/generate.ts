/**
 * Writes the mock's own OpenAPI document (`packages/mock-server/openapi.json`) from its zod
 * schemas. `--check` writes nothing and exits 1 when the committed file differs.
 */
import { writeGeneratedFiles } from '../../contract/scripts/write-generated-files';
import { MOCK_GENERATE_COMMAND, mockGeneratedFiles } from '../src/openapi/document';

writeGeneratedFiles(mockGeneratedFiles(), MOCK_GENERATE_COMMAND, process.argv.includes('--check'));
