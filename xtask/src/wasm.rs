//! `cargo xtask wasm [build | test | bench [ROUNDS]]`: the WebAssembly
//! package and the offline page.
//!
//! - `build` (the default): `mplp-wasm` for `wasm32-unknown-unknown` (the
//!   `wasm-release` profile), then `wasm-bindgen` (its version must be the
//!   crate's, `=0.2.x` in crates/mplp-wasm/Cargo.toml) into the npm package
//!   `target/npm/` (an ES module for Node and browsers, with its `.d.ts`;
//!   `npm pack target/npm` accepts it), and the page `web/` into one file,
//!   `target/web/index.html`, with the module inlined (it works from
//!   `file://`, offline). Prints the `.wasm` size, raw and gzipped.
//! - `test`: `build`, TypeScript 5 installed under `target/wasm-tools/`
//!   (once), then `node --test crates/mplp-wasm/tests/` (the records
//!   against `mplp validate --format json`, hostile input, the stream and
//!   its memory, `npm pack` and the installed package with its types, the
//!   page and the ES module in headless Chromium, a 300 MB log through the
//!   page's worker).
//! - `bench`: `build`, the documents of the performance table
//!   (`cargo run -p mplp-wasm --example bench_docs`), ajv and ajv-formats
//!   installed under `target/wasm-bench/`, then
//!   `crates/mplp-wasm/bench/bench.mjs`, which prints the table.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The wasm-bindgen version the crate pins (`=0.2.x`), read from its manifest.
fn pinned_version(root: &Path) -> Result<String, String> {
    let manifest = std::fs::read_to_string(root.join("crates/mplp-wasm/Cargo.toml"))
        .map_err(|e| format!("crates/mplp-wasm/Cargo.toml: {e}"))?;
    manifest
        .lines()
        .find_map(|l| {
            l.strip_prefix("wasm-bindgen = \"=")
                .and_then(|rest| rest.split('"').next())
        })
        .map(str::to_owned)
        .ok_or_else(|| "crates/mplp-wasm/Cargo.toml pins no `wasm-bindgen = \"=...\"`".to_owned())
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed ({status})"))
    }
}

fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

/// Builds the package and the page; the paths of the package and the page.
fn build(root: &Path) -> Result<(PathBuf, PathBuf), String> {
    let version = pinned_version(root)?;
    let found = Command::new("wasm-bindgen")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    if found != format!("wasm-bindgen {version}") {
        return Err(format!(
            "wasm-bindgen {version} is needed (found: `{found}`): cargo install --locked wasm-bindgen-cli --version {version}"
        ));
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    run(Command::new(&cargo).current_dir(root).args([
        "build",
        "--lib",
        "-p",
        "mplp-wasm",
        "--target",
        "wasm32-unknown-unknown",
        "--profile",
        "wasm-release",
    ]))?;
    let target = target_dir(root);
    let wasm = target.join("wasm32-unknown-unknown/wasm-release/mplp_wasm.wasm");
    let npm = target.join("npm");
    let _ = std::fs::remove_dir_all(&npm);
    let bindgen = |kind: &str, out: &Path| {
        run(Command::new("wasm-bindgen")
            .args(["--target", kind, "--out-name", "mplp_wasm", "--out-dir"])
            .arg(out)
            .arg(&wasm))
    };
    bindgen("web", &npm)?;
    let js = root.join("crates/mplp-wasm/js");
    for file in ["index.js", "index.d.ts", "README.md"] {
        std::fs::copy(js.join(file), npm.join(file)).map_err(|e| format!("{file}: {e}"))?;
    }
    let package = std::fs::read_to_string(js.join("package.json"))
        .map_err(|e| format!("package.json: {e}"))?
        .replace("@VERSION@", env!("CARGO_PKG_VERSION"));
    std::fs::write(npm.join("package.json"), package).map_err(|e| e.to_string())?;
    for license in ["LICENSE-MIT", "LICENSE-APACHE"] {
        std::fs::copy(root.join(license), npm.join(license)).map_err(|e| e.to_string())?;
    }
    // The page: the classic-script glue and the module inlined.
    let glue_dir = target.join("wasm-web");
    let _ = std::fs::remove_dir_all(&glue_dir);
    bindgen("no-modules", &glue_dir)?;
    let page = inline_page(root, &glue_dir)?;
    let web = target.join("web");
    std::fs::create_dir_all(&web).map_err(|e| e.to_string())?;
    let index = web.join("index.html");
    std::fs::write(&index, page).map_err(|e| e.to_string())?;
    let bytes = std::fs::read(npm.join("mplp_wasm_bg.wasm")).map_err(|e| e.to_string())?;
    let gz = gzipped_len(&npm.join("mplp_wasm_bg.wasm"))?;
    println!(
        "mplp_wasm_bg.wasm: {} bytes ({:.2} MB), {gz} bytes gzipped ({:.2} MB)\npackage: {}\npage: {}",
        bytes.len(),
        bytes.len() as f64 / 1_048_576.0,
        gz as f64 / 1_048_576.0,
        npm.display(),
        index.display()
    );
    Ok((npm, index))
}

/// The size of `gzip -9` of a file.
fn gzipped_len(path: &Path) -> Result<usize, String> {
    let o = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(path)
        .output()
        .map_err(|e| format!("gzip: {e}"))?;
    Ok(o.stdout.len())
}

/// `web/index.html` with its style, its scripts, the wasm-bindgen glue and
/// the module (base64) inlined: one file that needs nothing else.
fn inline_page(root: &Path, glue_dir: &Path) -> Result<String, String> {
    let read =
        |p: PathBuf| std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()));
    let web = root.join("web");
    let html = read(web.join("index.html"))?;
    let style = read(web.join("style.css"))?;
    let app = read(web.join("app.js"))?;
    let worker = read(web.join("worker.js"))?;
    let glue = read(glue_dir.join("mplp_wasm.js"))?;
    let wasm = std::fs::read(glue_dir.join("mplp_wasm_bg.wasm")).map_err(|e| e.to_string())?;
    for (name, text) in [("app.js", &app), ("worker.js", &worker), ("glue", &glue)] {
        if text.contains("</script") {
            return Err(format!("{name} holds `</script`: it cannot be inlined"));
        }
    }
    let scripts = format!(
        "<script id=\"mplp-glue\">\n{glue}\n</script>\n<script id=\"mplp-wasm\" type=\"application/octet-stream\">{}</script>\n<script id=\"mplp-worker\" type=\"text/plain\">\n{worker}\n</script>\n<script>\n{app}\n</script>",
        base64(&wasm)
    );
    if !html.contains("<!-- STYLE -->") || !html.contains("<!-- SCRIPTS -->") {
        return Err("web/index.html lacks `<!-- STYLE -->` or `<!-- SCRIPTS -->`".to_owned());
    }
    Ok(html
        .replace("<!-- STYLE -->", &format!("<style>\n{style}</style>"))
        .replace("<!-- SCRIPTS -->", &scripts))
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18u32, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ABC[((n >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn test(root: &Path, npm: &Path, page: &Path) -> Result<(), String> {
    let target = target_dir(root);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    // The CLI the records are compared with.
    run(Command::new(&cargo)
        .current_dir(root)
        .args(["build", "-p", "mplp-cli", "--bin", "mplp"]))?;
    let tests = root.join("crates/mplp-wasm/tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&tests)
        .map_err(|e| format!("{}: {e}", tests.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    files.sort();
    // TypeScript, to compile a program against the package's types (the
    // test is skipped without it, and fails when `CI` is set).
    let tools = target.join("wasm-tools");
    let tsc = tools.join("node_modules/typescript/bin/tsc");
    if !tsc.is_file() {
        if let Err(e) = run(Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
            .arg(&tools)
            .arg("typescript@5"))
        {
            eprintln!("cargo xtask wasm: typescript could not be installed ({e})");
        }
    }
    run(Command::new("node")
        .current_dir(root)
        .arg("--test")
        .args(&files)
        .env("MPLP_NPM", npm)
        .env("MPLP_PAGE", page)
        .env("MPLP_BIN", target.join("debug/mplp"))
        .env("MPLP_SCRATCH", target.join("wasm-test"))
        .env("MPLP_TSC", tsc))
}

fn bench(root: &Path, npm: &Path, rounds: &str) -> Result<(), String> {
    let target = target_dir(root);
    let dir = target.join("wasm-bench");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    run(Command::new(&cargo)
        .current_dir(root)
        .args(["run", "-p", "mplp-wasm", "--example", "bench_docs", "--"])
        .arg(dir.join("docs")))?;
    if !dir.join("node_modules/ajv-formats").is_dir() {
        run(Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
            .arg(&dir)
            .args(["ajv@8", "ajv-formats@3"]))?;
    }
    run(Command::new("node")
        .current_dir(root)
        .arg(root.join("crates/mplp-wasm/bench/bench.mjs"))
        .arg(rounds)
        .env("MPLP_NPM", npm)
        .env("MPLP_BENCH", &dir))
}

/// `cargo xtask wasm ...`.
pub(crate) fn main(args: &[String], root: &Path) -> ExitCode {
    let done = match args.first().map(String::as_str) {
        None | Some("build") => build(root).map(|_| ()),
        Some("test") => build(root).and_then(|(npm, page)| test(root, &npm, &page)),
        Some("bench") => build(root)
            .and_then(|(npm, _)| bench(root, &npm, args.get(1).map_or("5", String::as_str))),
        Some(other) => Err(format!(
            "unknown `cargo xtask wasm {other}`: build, test or bench [ROUNDS]"
        )),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cargo xtask wasm: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_is_the_standard_alphabet_with_padding() {
        assert_eq!(super::base64(b""), "");
        assert_eq!(super::base64(b"f"), "Zg==");
        assert_eq!(super::base64(b"fo"), "Zm8=");
        assert_eq!(super::base64(b"foo"), "Zm9v");
        assert_eq!(super::base64(b"foob"), "Zm9vYg==");
        assert_eq!(super::base64(&[0xff, 0xfe, 0x00]), "//4A");
    }

    #[test]
    fn the_pinned_version_is_the_locked_one() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let pinned = super::pinned_version(&root).unwrap();
        let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap();
        assert!(
            lock.contains(&format!("name = \"wasm-bindgen\"\nversion = \"{pinned}\"")),
            "{pinned}"
        );
    }
}
