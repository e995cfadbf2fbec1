// @ts-check
// Deltas between two JSON values (docs/protocol.md, "Deltas"): a live `update` carries
// the changes of the snapshot and of the table summary, a replay those of each move.
// A change is `[path, value]` (set the value at `path`, a list of object keys and list
// indexes; an index equal to a list's length appends; an empty path replaces the whole
// value) or `[path]` (remove a key).

/** `value` after `changes`: a new value sharing what did not change (the objects and
 * lists on a changed path are copied; `value` itself is unchanged). Throws a
 * `DeltaError` for a change that does not fit `value` (made against another one). */
export function applyDelta(value, changes) {
  const copied = new Set();
  const own = (parent, key) => {
    let child = parent[key];
    if (child === null || typeof child !== "object") {
      throw new DeltaError(`the path goes through ${JSON.stringify(child)} at ${JSON.stringify(key)}`);
    }
    if (!copied.has(child)) {
      child = Array.isArray(child) ? child.slice() : { ...child };
      parent[key] = child;
      copied.add(child);
    }
    return child;
  };
  const root = { "": value };
  for (const change of changes) {
    if (!Array.isArray(change) || !Array.isArray(change[0]) || change.length < 1 || change.length > 2) {
      throw new DeltaError(`not a change: ${JSON.stringify(change)}`);
    }
    const path = change[0].length ? change[0] : [""];
    let node = change[0].length ? own(root, "") : root;
    for (const key of path.slice(0, -1)) {
      if (!(key in node)) throw new DeltaError(`no ${JSON.stringify(key)} on the path ${JSON.stringify(change[0])}`);
      node = own(node, key);
    }
    const last = path[path.length - 1];
    if (Array.isArray(node) && !(Number.isInteger(last) && last >= 0 && last <= node.length)) {
      throw new DeltaError(`index ${JSON.stringify(last)} is outside a list of ${node.length}`);
    }
    if (change.length === 1) {
      if (Array.isArray(node) || !(last in node)) throw new DeltaError(`no key ${JSON.stringify(last)} to remove`);
      delete node[last];
    } else {
      node[last] = change[1];
    }
  }
  return root[""];
}

/** A delta that does not fit the value it is applied to. */
export class DeltaError extends Error {}
