//! The directory store: an evidence pack on disk.

use std::collections::{BTreeMap, HashMap};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{Expect, Store, StoreError, Versioned, check_expect};

const EVENTS: &str = "timeline/events.ndjson";
const INTEGRITY: &str = "integrity/sha256sums.txt";
const MANIFEST: &str = "manifest.json";

/// A [`Store`] in a directory laid out as an MPLP evidence pack, the layout
/// of the published golden flows:
///
/// ```text
/// DIR/manifest.json                 written when the work is sealed
/// DIR/artifacts/<kind>.json         one document per kind (context, plan, confirm, trace)
/// DIR/timeline/events.ndjson        the event log, one event a line
/// DIR/checkpoints/<name>.json       runtime bookkeeping
/// DIR/integrity/sha256sums.txt      `sha256sum -c` list of every file, written when sealed
/// ```
///
/// - Documents and checkpoints are written atomically: a temporary file
///   in the same directory, `fsync`, `rename`, `fsync` of the directory.
///   A crash at any instant leaves the old or the new file, never a torn
///   one.
/// - An append writes the line and its newline in one `write` and
///   `fsync`s. A crash can leave a last line without its newline: it never
///   completed, and is dropped before the next append.
/// - One writer at a time: the directory is locked (`flock`, released by
///   the kernel when the process dies, `SIGKILL` included); a second
///   writer gets [`StoreError::Locked`]. (On platforms without `flock`
///   there is no lock.)
/// - A sealed pack (with `integrity/sha256sums.txt`) is checked when
///   opened: a file whose checksum does not match, a listed file that is
///   missing and a file that is not listed are refused with
///   [`StoreError::Corrupt`] naming the file, and nothing is written.
///   Bad JSON in a document, a checkpoint or a line of the log is refused
///   the same way when read.
/// - Revisions count the writes since the store was opened (documents
///   found on disk are at revision 1): the lock makes this process the
///   only writer, so compare-and-set needs no revision on disk.
///
/// ```
/// use mplp_runtime::store::{DirStore, Expect, Store};
/// let dir = std::env::temp_dir().join(format!("mplp-doc-{}", std::process::id()));
/// # let _ = std::fs::remove_dir_all(&dir);
/// let mut store = DirStore::open(&dir)?;
/// store.put("plan", "p1", br#"{"plan_id":"p1"}"#, Expect::Absent)?;
/// store.append(br#"{"event_id":"e1"}"#)?;
/// assert!(DirStore::open(&dir).is_err()); // locked by `store`
/// store.seal()?;
/// drop(store);
/// let store = DirStore::open(&dir)?; // checked against the integrity list
/// assert_eq!(store.event_count(), 1);
/// # drop(store); std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), mplp_runtime::store::StoreError>(())
/// ```
#[derive(Debug)]
pub struct DirStore {
    root: PathBuf,
    /// The open directory, holding the lock.
    _lock: File,
    /// kind → (id, revision) of the documents written or found.
    docs: HashMap<String, (String, u64)>,
    events: u64,
    /// Length of the log up to its last complete line, when a torn line follows.
    torn: Option<u64>,
    sealed: bool,
    log: Option<File>,
    /// Write operations so far, and the one that fails (crash tests).
    writes: u64,
    fail_at: Option<u64>,
    fsyncs: u64,
}

fn name_ok(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut s = String::with_capacity(64);
    for b in digest {
        s.push(char::from_digit(u32::from(b >> 4), 16).unwrap_or('0'));
        s.push(char::from_digit(u32::from(b & 15), 16).unwrap_or('0'));
    }
    s
}

/// Every file below `dir` as `/`-separated paths relative to `base`.
fn list_files(dir: &Path, rel: &str, out: &mut Vec<String>) -> io::Result<()> {
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for e in rd {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        let child = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        if e.file_type()?.is_dir() {
            list_files(&e.path(), &child, out)?;
        } else {
            out.push(child);
        }
    }
    Ok(())
}

#[cfg(unix)]
fn lock(dir: &File, path: &Path) -> Result<(), StoreError> {
    use rustix::fs::{FlockOperation, flock};
    flock(dir, FlockOperation::NonBlockingLockExclusive).map_err(|e| {
        if e == rustix::io::Errno::WOULDBLOCK {
            StoreError::Locked {
                path: path.to_path_buf(),
                message: "another process is writing this store (the directory is locked); \
                          wait for it to finish, or stop it"
                    .to_owned(),
            }
        } else {
            StoreError::io(path.display(), io::Error::from(e))
        }
    })
}

#[cfg(not(unix))]
fn lock(_dir: &File, _path: &Path) -> Result<(), StoreError> {
    Ok(())
}

impl DirStore {
    /// Opens (creating it if needed) the store in `dir` and locks it.
    ///
    /// # Errors
    /// [`StoreError::Locked`] when another process holds it;
    /// [`StoreError::Corrupt`] when a sealed pack does not match its
    /// integrity list, or a line of the log is not JSON.
    pub fn open(dir: impl AsRef<Path>) -> Result<Self, StoreError> {
        let root = dir.as_ref().to_path_buf();
        fs::create_dir_all(&root).map_err(|e| StoreError::io(root.display(), e))?;
        let handle = File::open(&root).map_err(|e| StoreError::io(root.display(), e))?;
        lock(&handle, &root)?;
        let mut store = DirStore {
            root,
            _lock: handle,
            docs: HashMap::new(),
            events: 0,
            torn: None,
            sealed: false,
            log: None,
            writes: 0,
            fail_at: None,
            fsyncs: 0,
        };
        store.verify_integrity()?;
        store.scan_log()?;
        store.scan_artifacts()?;
        Ok(store)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// How many `fsync`s this store made (files and directories).
    pub fn fsyncs(&self) -> u64 {
        self.fsyncs
    }

    /// For crash tests: the `n`-th write operation from now (1 = the next
    /// one) fails half-way with an I/O error, as a crash would leave it (a
    /// temporary file written but not renamed; half a log line).
    pub fn fail_write(&mut self, n: u64) {
        self.fail_at = Some(self.writes + n);
    }

    /// Whether the pack is sealed (its integrity list is current).
    pub fn is_sealed(&self) -> bool {
        self.sealed
    }

    fn file(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    fn verify_integrity(&mut self) -> Result<(), StoreError> {
        let path = self.file(INTEGRITY);
        let text = match fs::read(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(StoreError::io(INTEGRITY, e)),
        };
        let text = String::from_utf8(text)
            .map_err(|_| StoreError::corrupt(INTEGRITY, "not UTF-8 text"))?;
        let mut listed = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let (hex, rest) = line.split_at_checked(64).unwrap_or((line, ""));
            let rel = rest.strip_prefix("  ").unwrap_or("");
            if rel.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(StoreError::corrupt(
                    format!("{INTEGRITY}:{}", n + 1),
                    format!(
                        "expected `<64 hex digits>  <path>` (sha256sum format), found `{line}`"
                    ),
                ));
            }
            listed.insert(rel.to_owned(), hex.to_ascii_lowercase());
        }
        for (rel, hex) in &listed {
            if rel
                .split('/')
                .any(|c| c.is_empty() || c == "." || c == "..")
            {
                return Err(StoreError::corrupt(
                    INTEGRITY,
                    format!("`{rel}` is not a path inside the store"),
                ));
            }
            let bytes = fs::read(self.file(rel)).map_err(|e| {
                StoreError::corrupt(
                    rel,
                    format!("listed in {INTEGRITY} but cannot be read: {e}"),
                )
            })?;
            let actual = sha256_hex(&bytes);
            if &actual != hex {
                return Err(StoreError::corrupt(
                    rel,
                    format!(
                        "sha256 is {actual}, {INTEGRITY} says {hex}: the file was changed after the store was sealed (by hand, or by another tool); nothing was written"
                    ),
                ));
            }
        }
        let mut present = Vec::new();
        list_files(&self.root, "", &mut present)
            .map_err(|e| StoreError::io(self.root.display(), e))?;
        for rel in present {
            if rel != INTEGRITY && !listed.contains_key(&rel) {
                return Err(StoreError::corrupt(
                    &rel,
                    format!(
                        "this file is not in {INTEGRITY}: it was added after the store was sealed"
                    ),
                ));
            }
        }
        self.sealed = true;
        Ok(())
    }

    fn scan_log(&mut self) -> Result<(), StoreError> {
        let bytes = match fs::read(self.file(EVENTS)) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(StoreError::io(EVENTS, e)),
        };
        let complete = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        if complete < bytes.len() {
            self.torn = Some(complete as u64);
        }
        self.events = for_each_line(&bytes[..complete], |_, _| Ok(()))?;
        Ok(())
    }

    fn scan_artifacts(&mut self) -> Result<(), StoreError> {
        let dir = self.file("artifacts");
        let rd = match fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(StoreError::io("artifacts", e)),
        };
        for e in rd {
            let e = e.map_err(|e| StoreError::io("artifacts", e))?;
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(kind) = name.strip_suffix(".json") else {
                continue;
            };
            if !name_ok(kind) {
                continue;
            }
            let rel = format!("artifacts/{name}");
            let id = read_id(&self.file(&rel), &rel, kind)?;
            self.docs.insert(kind.to_owned(), (id, 1));
        }
        Ok(())
    }

    /// One write operation: counts it, and fails it when asked to.
    fn step_write(&mut self) -> bool {
        self.writes += 1;
        self.fail_at == Some(self.writes)
    }

    fn injected(rel: &str) -> StoreError {
        StoreError::io(rel, io::Error::other("injected I/O error (crash test)"))
    }

    fn sync_dir(&mut self, dir: &Path) -> Result<(), StoreError> {
        #[cfg(unix)]
        {
            let d = File::open(dir).map_err(|e| StoreError::io(dir.display(), e))?;
            d.sync_all().map_err(|e| StoreError::io(dir.display(), e))?;
            self.fsyncs += 1;
        }
        let _ = dir;
        Ok(())
    }

    /// Write, fsync, rename, fsync the directory.
    fn write_atomic(&mut self, rel: &str, bytes: &[u8]) -> Result<(), StoreError> {
        let fail = self.step_write();
        let path = self.file(rel);
        let parent = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| self.root.clone());
        fs::create_dir_all(&parent).map_err(|e| StoreError::io(rel, e))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = parent.join(format!(".{name}.tmp"));
        let mut f = File::create(&tmp).map_err(|e| StoreError::io(rel, e))?;
        if fail {
            let _ = f.write_all(&bytes[..bytes.len() / 2]);
            return Err(Self::injected(rel));
        }
        f.write_all(bytes).map_err(|e| StoreError::io(rel, e))?;
        f.sync_all().map_err(|e| StoreError::io(rel, e))?;
        self.fsyncs += 1;
        drop(f);
        fs::rename(&tmp, &path).map_err(|e| StoreError::io(rel, e))?;
        self.sync_dir(&parent)
    }

    /// Before the first change of a sealed or crashed store: drop the
    /// integrity list (it would be stale), the torn tail of the log and
    /// leftover temporary files.
    fn unseal(&mut self) -> Result<(), StoreError> {
        if self.sealed {
            match fs::remove_file(self.file(INTEGRITY)) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(StoreError::io(INTEGRITY, e)),
            }
            let dir = self.file("integrity");
            self.sync_dir(&dir)?;
            self.sealed = false;
        }
        if let Some(len) = self.torn.take() {
            let f = OpenOptions::new()
                .write(true)
                .open(self.file(EVENTS))
                .map_err(|e| StoreError::io(EVENTS, e))?;
            f.set_len(len).map_err(|e| StoreError::io(EVENTS, e))?;
            f.sync_all().map_err(|e| StoreError::io(EVENTS, e))?;
            self.fsyncs += 1;
        }
        Ok(())
    }

    fn remove_temporaries(&self) -> Result<(), StoreError> {
        let mut present = Vec::new();
        list_files(&self.root, "", &mut present)
            .map_err(|e| StoreError::io(self.root.display(), e))?;
        for rel in present {
            let base = rel.rsplit('/').next().unwrap_or("");
            if base.starts_with('.') && base.ends_with(".tmp") {
                fs::remove_file(self.file(&rel)).map_err(|e| StoreError::io(&rel, e))?;
            }
        }
        Ok(())
    }

    fn log_file(&mut self) -> Result<&mut File, StoreError> {
        if self.log.is_none() {
            let path = self.file(EVENTS);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent).map_err(|e| StoreError::io(EVENTS, e))?;
            }
            let f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|e| StoreError::io(EVENTS, e))?;
            self.log = Some(f);
        }
        self.log
            .as_mut()
            .ok_or_else(|| StoreError::io(EVENTS, io::Error::other("log not open")))
    }
}

/// Calls `f` with each non-blank line (1-based number, bytes) and returns
/// how many there were; a line that is not JSON is refused.
fn for_each_line(
    bytes: &[u8],
    mut f: impl FnMut(u64, &[u8]) -> Result<(), StoreError>,
) -> Result<u64, StoreError> {
    let mut count = 0;
    for (n, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(line) {
            return Err(StoreError::corrupt(
                format!("{EVENTS}:{}", n + 1),
                format!("not a JSON event: {e}"),
            ));
        }
        count += 1;
        f(n as u64 + 1, line)?;
    }
    Ok(count)
}

/// The `<kind>_id` of the document in `path`.
fn read_id(path: &Path, rel: &str, kind: &str) -> Result<String, StoreError> {
    let bytes = fs::read(path).map_err(|e| StoreError::io(rel, e))?;
    let value: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| StoreError::corrupt(rel, format!("not JSON: {e}")))?;
    let key = format!("{}_id", kind.replace('-', "_"));
    value
        .get(&key)
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| {
            StoreError::corrupt(
                rel,
                format!("expected a `{key}` string naming the document"),
            )
        })
}

impl Store for DirStore {
    fn get(&self, kind: &str, id: &str) -> Result<Option<Versioned>, StoreError> {
        let Some((stored, revision)) = self.docs.get(kind) else {
            return Ok(None);
        };
        if stored != id {
            return Ok(None);
        }
        let rel = format!("artifacts/{kind}.json");
        let bytes = fs::read(self.file(&rel)).map_err(|e| {
            StoreError::corrupt(
                &rel,
                format!("the store wrote this document, but it cannot be read: {e}"),
            )
        })?;
        if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(&bytes) {
            return Err(StoreError::corrupt(&rel, format!("not JSON: {e}")));
        }
        Ok(Some(Versioned {
            revision: *revision,
            bytes,
        }))
    }

    fn put(
        &mut self,
        kind: &str,
        id: &str,
        bytes: &[u8],
        expect: Expect,
    ) -> Result<u64, StoreError> {
        if !name_ok(kind) {
            return Err(StoreError::Unsupported(format!(
                "`{kind}` is not a document kind the directory store can name a file after"
            )));
        }
        let found = match self.docs.get(kind) {
            // Any: whatever is there, even another document of the kind
            // (the pack keeps one; `SaSession::new` over a creation that
            // crashed half-way).
            Some((stored, _)) if stored != id && expect == Expect::Any => None,
            Some((stored, _)) if stored != id => {
                return Err(StoreError::Unsupported(format!(
                    "artifacts/{kind}.json holds {kind} {stored}; the directory store keeps one {kind} per pack, not also {id}"
                )));
            }
            Some((_, r)) => Some(*r),
            None => None,
        };
        check_expect(kind, id, expect, found)?;
        self.unseal()?;
        self.write_atomic(&format!("artifacts/{kind}.json"), bytes)?;
        let revision = found.map_or(1, |r| r + 1);
        self.docs.insert(kind.to_owned(), (id.to_owned(), revision));
        Ok(revision)
    }

    fn append(&mut self, event: &[u8]) -> Result<u64, StoreError> {
        self.unseal()?;
        let fail = self.step_write();
        let mut line = Vec::with_capacity(event.len() + 1);
        line.extend_from_slice(event);
        line.push(b'\n');
        let f = self.log_file()?;
        if fail {
            let _ = f.write_all(&line[..line.len() / 2]);
            let _ = f.sync_all();
            // The next open finds a torn line, as after a crash.
            self.log = None;
            return Err(Self::injected(EVENTS));
        }
        f.write_all(&line).map_err(|e| StoreError::io(EVENTS, e))?;
        f.sync_data().map_err(|e| StoreError::io(EVENTS, e))?;
        self.fsyncs += 1;
        self.events += 1;
        Ok(self.events)
    }

    fn events(&self) -> Result<Vec<Vec<u8>>, StoreError> {
        let bytes = match fs::read(self.file(EVENTS)) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(StoreError::io(EVENTS, e)),
        };
        let complete = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let mut out = Vec::new();
        for_each_line(&bytes[..complete], |_, line| {
            out.push(line.to_vec());
            Ok(())
        })?;
        Ok(out)
    }

    fn event_count(&self) -> u64 {
        self.events
    }

    fn put_checkpoint(&mut self, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        if !name_ok(name) {
            return Err(StoreError::Unsupported(format!(
                "`{name}` is not a checkpoint name the directory store can name a file after"
            )));
        }
        self.unseal()?;
        self.write_atomic(&format!("checkpoints/{name}.json"), bytes)
    }

    fn checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        if !name_ok(name) {
            return Ok(None);
        }
        let rel = format!("checkpoints/{name}.json");
        match fs::read(self.file(&rel)) {
            Ok(bytes) => {
                if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(&bytes) {
                    return Err(StoreError::corrupt(&rel, format!("not JSON: {e}")));
                }
                Ok(Some(bytes))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(StoreError::io(&rel, e)),
        }
    }

    /// Writes `manifest.json` (pack id, flow id = the directory's name,
    /// protocol version, creation time) and the integrity list of every
    /// file.
    fn seal(&mut self) -> Result<(), StoreError> {
        if self.sealed {
            return Ok(());
        }
        self.unseal()?;
        self.remove_temporaries()?;
        let flow_id = self
            .root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| "sa-run".to_owned());
        let manifest = serde_json::json!({
            "pack_id": uuid::Uuid::new_v4().to_string(),
            "flow_id": flow_id,
            "protocol_version": "1.0.0",
            "created_at": mplp_core::Timestamp::now().to_string(),
            "profile": "mplp:profile:sa:1.0.0",
            "generator": concat!("mplp-rs ", env!("CARGO_PKG_VERSION")),
        });
        let mut text = serde_json::to_vec_pretty(&manifest)
            .map_err(|e| StoreError::io(MANIFEST, io::Error::other(e)))?;
        text.push(b'\n');
        self.write_atomic(MANIFEST, &text)?;
        let mut present = Vec::new();
        list_files(&self.root, "", &mut present)
            .map_err(|e| StoreError::io(self.root.display(), e))?;
        present.sort();
        let mut sums = String::new();
        for rel in present.iter().filter(|r| r.as_str() != INTEGRITY) {
            let bytes = fs::read(self.file(rel)).map_err(|e| StoreError::io(rel, e))?;
            sums.push_str(&sha256_hex(&bytes));
            sums.push_str("  ");
            sums.push_str(rel);
            sums.push('\n');
        }
        self.write_atomic(INTEGRITY, sums.as_bytes())?;
        self.sealed = true;
        Ok(())
    }
}
