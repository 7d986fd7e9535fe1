// The worker of the page (run after the wasm-bindgen glue, from a Blob):
// streams one file through a LogValidator, posting its progress (bytes
// read) and the size of the module's memory, which stays bounded however
// long the log is (docs/spec-notes.md, "WebAssembly and the browser").
"use strict";
self.onmessage = async (e) => {
  const { module, file, options } = e.data;
  try {
    const wasm = wasm_bindgen.initSync({ module });
    const v = new wasm_bindgen.LogValidator(options);
    const report = () => self.postMessage({ progress: v.bytes, memory: wasm.memory.buffer.byteLength });
    const reader = file.stream().getReader();
    let last = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      v.push(value);
      const now = Date.now();
      // 20 figures a second: a smooth bar, a negligible cost.
      if (now - last >= 50) {
        last = now;
        report();
      }
    }
    report();
    self.postMessage({ record: v.finishText(), memory: wasm.memory.buffer.byteLength });
  } catch (err) {
    self.postMessage({ error: String((err && err.message) || err) });
  }
};
