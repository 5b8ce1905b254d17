export { errorMessage, recordError } from '@arclight/instrumentation';
