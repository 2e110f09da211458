import { defineBehaviourSuite } from './behaviour-suite';
import { mswTransport } from './transports';

defineBehaviourSuite(mswTransport);
