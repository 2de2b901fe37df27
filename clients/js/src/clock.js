// The emulator clock (one per emulator, shared by every project): read, advance, set, reset.

const PATH = "/emulator/v1/clock";

function reading(body) {
  return { now: new Date(body.now), offsetSeconds: body.offsetSeconds };
}

export class Clock {
  /** @param {import("./http.js").Connection} connection */
  constructor(connection) {
    this.connection = connection;
  }

  /** `{now, offsetSeconds}`: the emulator's time and how far ahead of real time it runs. */
  async read() {
    return reading(await this.connection.json("GET", PATH));
  }

  /** The emulator's time. */
  async now() {
    return (await this.read()).now;
  }

  /** Moves the clock `seconds` forward (never back) and answers the new time. */
  async advance(seconds) {
    return reading(await this.connection.json("POST", `${PATH}:advance`, { json: { seconds } })).now;
  }

  /** Sets the clock to `time` (a Date or an RFC 3339 string, not before real time). */
  async set(time) {
    const text = time instanceof Date ? time.toISOString() : time;
    return reading(await this.connection.json("POST", `${PATH}:set`, { json: { time: text } })).now;
  }

  /** Back to real time. */
  async reset() {
    return reading(await this.connection.json("POST", `${PATH}:reset`)).now;
  }

  /**
   * Runs `body(clock)` and puts the clock back to real time afterwards, whether it passed or
   * threw; answers what `body` answered. When both fail, the test sees `body`'s error.
   * @template T
   * @param {(clock: Clock) => Promise<T> | T} body
   * @returns {Promise<T>}
   */
  async scoped(body) {
    let result;
    try {
      result = await body(this);
    } catch (error) {
      await this.reset().catch(() => {});
      throw error;
    }
    await this.reset();
    return result;
  }
}
