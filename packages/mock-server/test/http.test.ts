import { defineBehaviourSuite } from './behaviour-suite';
import { httpTransport } from './transports';

defineBehaviourSuite(httpTransport);
