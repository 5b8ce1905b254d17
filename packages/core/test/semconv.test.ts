import { describe, expect, it } from 'vitest';
import {
  AGL_ANNOTATION,
  AGL_EXCEPTION,
  AGL_MESSAGE,
  AGL_OBJECT,
  AGL_OPERATION,
  AGL_REWARD,
  AGL_VIRTUAL,
  LightningResourceAttributes,
  LightningSpanAttributes,
  LinkAttributes,
  RewardAttributes,
  rewardAttributeKey,
  SpanAttributeNames,
  SpanNames,
} from '../src/index.js';

describe('semantic conventions (upstream semconv.py)', () => {
  it('has the exact span names', () => {
    expect([
      AGL_ANNOTATION,
      AGL_MESSAGE,
      AGL_OBJECT,
      AGL_EXCEPTION,
      AGL_OPERATION,
      AGL_REWARD,
      AGL_VIRTUAL,
    ]).toEqual([
      'agentlightning.annotation',
      'agentlightning.message',
      'agentlightning.object',
      'agentlightning.exception',
      'agentlightning.operation',
      'agentlightning.reward',
      'agentlightning.virtual',
    ]);
  });

  it('has the exact attribute names', () => {
    expect(LightningResourceAttributes).toEqual({
      ROLLOUT_ID: 'agentlightning.rollout_id',
      ATTEMPT_ID: 'agentlightning.attempt_id',
      SPAN_SEQUENCE_ID: 'agentlightning.span_sequence_id',
      TRACER_NAME: 'agentlightning.tracer.name',
    });
    expect(LightningSpanAttributes).toEqual({
      REWARD: 'agentlightning.reward',
      LINK: 'agentlightning.link',
      TAG: 'agentlightning.tag',
      MESSAGE_BODY: 'agentlightning.message.body',
      OBJECT_TYPE: 'agentlightning.object.type',
      OBJECT_LITERAL: 'agentlightning.object.literal',
      OBJECT_JSON: 'agentlightning.object.json',
      OPERATION_NAME: 'agentlightning.operation.name',
      OPERATION_INPUT: 'agentlightning.operation.input',
      OPERATION_OUTPUT: 'agentlightning.operation.output',
    });
    expect(RewardAttributes).toEqual({ REWARD_NAME: 'name', REWARD_VALUE: 'value' });
    expect(LinkAttributes).toEqual({ KEY_MATCH: 'key_match', VALUE_MATCH: 'value_match' });
    expect(rewardAttributeKey(0, RewardAttributes.REWARD_VALUE)).toBe(
      'agentlightning.reward.0.value',
    );
  });

  it('keeps the deprecated enums', () => {
    expect(SpanNames).toEqual({
      REWARD: 'agentlightning.reward',
      MESSAGE: 'agentlightning.message',
      OBJECT: 'agentlightning.object',
      EXCEPTION: 'agentlightning.exception',
      VIRTUAL: 'agentlightning.virtual',
      ROLLOUT_ID: 'agentlightning.rollout_id',
      ATTEMPT_ID: 'agentlightning.attempt_id',
      SPAN_SEQUENCE_ID: 'agentlightning.span_sequence_id',
    });
    expect(SpanAttributeNames).toEqual({ MESSAGE: 'message', OBJECT: 'object' });
  });

  it('cannot be mutated', () => {
    expect(Object.isFrozen(LightningSpanAttributes)).toBe(true);
  });
});
