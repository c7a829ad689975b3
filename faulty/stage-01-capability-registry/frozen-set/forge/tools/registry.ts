// Stage 01: every tool declares the side effects it may have, in a fixed vocabulary, before the
// harness will consider calling it. The registry finds tools by the capabilities a task needs.
import { z } from "zod";

/** The policy vocabulary: the only side effects a tool may declare. */
export const ALLOWED_CAPABILITIES = Object.freeze(["read", "write", "network", "process"] as const);

export type Capability = (typeof ALLOWED_CAPABILITIES)[number];

export interface ToolDescriptor {
  readonly name: string;
  readonly capabilities: ReadonlySet<Capability>;
}

function isCapability(value: unknown): value is Capability {
  return (ALLOWED_CAPABILITIES as readonly unknown[]).includes(value);
}

function unknownCapabilities(values: readonly unknown[]): string[] {
  return values.filter((value) => !isCapability(value)).map((value) => JSON.stringify(value) ?? String(value));
}

/**
 * A set that can only be read. A frozen `Set` can still be changed with `add`, so the items live in a
 * private copy and this class simply has no method that changes them.
 */
class CapabilitySet implements ReadonlySet<Capability> {
  readonly #items: Set<Capability>;

  constructor(items: Iterable<Capability>) {
    // Sorted, so two tools with the same capabilities list them the same way.
    this.#items = new Set([...items].sort());
    Object.freeze(this);
  }

  get size(): number {
    return this.#items.size;
  }

  has(value: Capability): boolean {
    return this.#items.has(value);
  }

  forEach(callback: (value: Capability, key: Capability, set: ReadonlySet<Capability>) => void, thisArg?: unknown): void {
    for (const value of this.#items) callback.call(thisArg, value, value, this);
  }

  entries(): SetIterator<[Capability, Capability]> {
    return this.#items.entries();
  }

  keys(): SetIterator<Capability> {
    return this.#items.keys();
  }

  values(): SetIterator<Capability> {
    return this.#items.values();
  }

  [Symbol.iterator](): SetIterator<Capability> {
    return this.#items.values();
  }
}

/**
 * The descriptors defineTool has validated. Types are erased at run time, so any object of the right
 * shape passes as a ToolDescriptor; this private set makes "validated" a fact the registry can check.
 */
const issued = new WeakSet<ToolDescriptor>();

/**
 * Creates a validated, immutable descriptor. A blank name or a capability outside the vocabulary is
 * refused here, so no invalid tool can exist at all.
 */
export function defineTool(name: string, capabilities: Iterable<string>): ToolDescriptor {
  if (typeof name !== "string" || name.trim() === "") {
    throw new Error("invalid tool descriptor: the name must not be blank");
  }
  // Copy first: whatever the caller does to its own collection later cannot reach the descriptor.
  const declared = [...capabilities];
  const unknown = unknownCapabilities(declared);
  if (unknown.length > 0) {
    throw new Error(
      `invalid tool descriptor "${name}": unknown capability ${unknown.join(", ")}; allowed: ${ALLOWED_CAPABILITIES.join(", ")}`,
    );
  }
  // Every value was checked against the vocabulary just above.
  const tool: ToolDescriptor = Object.freeze({ name, capabilities: Object.freeze(new Set(declared as Capability[])) });
  issued.add(tool);
  return tool;
}

/** The shape of a descriptor that arrives as untyped JSON, for example from a plugin manifest. */
export const toolDescriptorInput = z
  .object({
    name: z.string().refine((value) => value.trim() !== "", "must not be blank"),
    capabilities: z.array(z.enum(ALLOWED_CAPABILITIES)),
  })
  .strict();

/** Validates untyped input and returns a descriptor, or throws an error that says what is wrong. */
export function parseToolDescriptor(input: unknown): ToolDescriptor {
  const result = toolDescriptorInput.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "(input)"}: ${issue.message}`);
    throw new Error(`invalid tool descriptor: ${problems.join("; ")}`);
  }
  return defineTool(result.data.name, result.data.capabilities);
}

/** Compares by UTF-16 code units: the same order on every machine, unlike localeCompare. */
function byName(a: ToolDescriptor, b: ToolDescriptor): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export class ToolRegistry {
  readonly #tools = new Map<string, ToolDescriptor>();

  /** Adds a tool made by defineTool under a name no other tool has. */
  register(tool: ToolDescriptor): void {
    if (!issued.has(tool)) {
      throw new Error("invalid tool descriptor: create it with defineTool or parseToolDescriptor");
    }
    if (this.#tools.has(tool.name)) {
      throw new Error(`tool "${tool.name}" is already registered`);
    }
    this.#tools.set(tool.name, tool);
  }

  /** The tools whose capabilities include every required one, sorted by name. */
  supporting(required: Iterable<Capability>): ToolDescriptor[] {
    const needed = [...required];
    // Callers outside TypeScript can pass anything; a misspelt requirement must not quietly match nothing.
    const unknown = unknownCapabilities(needed);
    if (unknown.length > 0) {
      throw new Error(`invalid capability requirement: unknown capability ${unknown.join(", ")}`);
    }
    return [...this.#tools.values()].filter((tool) => needed.every((capability) => tool.capabilities.has(capability))).sort(byName);
  }
}
