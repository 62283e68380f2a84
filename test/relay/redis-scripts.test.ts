import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as scripts from '../../relay/engine/redis-scripts';

describe('the Redis engine’s Lua scripts', () => {
  it('reads every .lua file in its directory, and every script it reads is there', () => {
    const files = readdirSync(scripts.LUA_DIR).filter((name) => name.endsWith('.lua'));
    expect([...scripts.LUA_FILES].sort()).toEqual(files.sort());
    for (const [name, text] of Object.entries(scripts))
      if (typeof text === 'string') expect(text, name).toMatch(/redis\.call\(/);
  });
});
