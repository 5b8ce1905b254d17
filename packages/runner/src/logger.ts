// One Logger for runners, trainers and algorithms: @arclight/core's.
export {
  consoleLogger,
  type Logger as RunnerLogger,
  resolveLogger,
  silentLogger,
} from '@arclight/core';
