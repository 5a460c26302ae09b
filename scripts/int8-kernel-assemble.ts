import wabtInit from 'wabt';

/** The kernel's WebAssembly text assembled to its binary (SIMD on, no names section). */
export async function assembleKernel(wat: string): Promise<Uint8Array> {
  const wabt = await wabtInit();
  const module = wabt.parseWat('int8-kernel.wat', wat, { simd: true });
  try {
    module.validate();
    return module.toBinary({ log: false, write_debug_names: false }).buffer;
  } finally {
    module.destroy();
  }
}
