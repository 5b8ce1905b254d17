// The sleeps are @arclight/core's (algorithms and the trainer wait the same way without depending on a runner).
export { interruptibleSleep, jittered, withTimeout } from '@arclight/core';
