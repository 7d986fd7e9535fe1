// The worker of the page (run after the wasm-bindgen glue, from a Blob):
// streams one file through a LogValidator, posting its progress.
"use strict";
self.onmessage = async (e) => {
  const { module, file, options } = e.data;
  try {
    wasm_bindgen.initSync({ module });
    const v = new wasm_bindgen.LogValidator(options);
    const reader = file.stream().getReader();
    let last = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      v.push(value);
      const now = Date.now();
      if (now - last > 100) {
        last = now;
        self.postMessage({ progress: v.bytes });
      }
    }
    self.postMessage({ progress: v.bytes });
    self.postMessage({ record: v.finishText() });
  } catch (err) {
    self.postMessage({ error: String((err && err.message) || err) });
  }
};
