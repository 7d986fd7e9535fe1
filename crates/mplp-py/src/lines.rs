//! A `BufRead` over a Python iterable of lines, so the Rust log validators
//! stream from a generator or an open file without reading it whole.

use std::io::{self, BufRead, Read};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyIterator, PyString};

/// Reads the items of a Python iterator (each `str` or `bytes`, one line;
/// a newline is added to an item that does not end with one). Holds one
/// item at a time. A Python exception raised by the iterator, or an item of
/// another type, ends the input and is kept in [`LineReader::error`].
pub(crate) struct LineReader<'py> {
    iter: Bound<'py, PyIterator>,
    buf: Vec<u8>,
    pos: usize,
    done: bool,
    /// The first Python error met, re-raised by the caller.
    pub(crate) error: Option<PyErr>,
}

impl<'py> LineReader<'py> {
    /// A reader over `iterable`'s items.
    pub(crate) fn new(iterable: &Bound<'py, PyAny>) -> PyResult<Self> {
        Ok(LineReader {
            iter: iterable.try_iter()?,
            buf: Vec::new(),
            pos: 0,
            done: false,
            error: None,
        })
    }

    /// Loads the next item into the buffer; `false` at the end (or on error).
    fn next_item(&mut self) -> bool {
        let item = match self.iter.next() {
            None => return false,
            Some(Err(e)) => {
                self.error = Some(e);
                return false;
            }
            Some(Ok(item)) => item,
        };
        self.buf.clear();
        self.pos = 0;
        if let Ok(b) = item.cast::<PyBytes>() {
            self.buf.extend_from_slice(b.as_bytes());
        } else if let Ok(b) = item.cast::<PyByteArray>() {
            self.buf.extend_from_slice(&b.to_vec());
        } else if let Ok(s) = item.cast::<PyString>() {
            match s.to_cow() {
                Ok(text) => self.buf.extend_from_slice(text.as_bytes()),
                Err(e) => {
                    self.error = Some(e);
                    return false;
                }
            }
        } else {
            let name = item
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".to_owned());
            self.error = Some(PyTypeError::new_err(format!(
                "validate_log: expected lines as str or bytes, got {name}"
            )));
            return false;
        }
        if self.buf.last() != Some(&b'\n') {
            self.buf.push(b'\n');
        }
        true
    }
}

impl Read for LineReader<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for LineReader<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.buf.len() && !self.done {
            if !self.next_item() {
                self.done = true;
                self.buf.clear();
                self.pos = 0;
            }
        }
        Ok(&self.buf[self.pos..])
    }

    fn consume(&mut self, amount: usize) {
        self.pos = (self.pos + amount).min(self.buf.len());
    }
}
