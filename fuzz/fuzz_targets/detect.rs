//! Kind detection and dispatch (`mplp validate --kind auto`): no panic, a
//! detected kind is the one validated, an undetected input has exactly one
//! violation saying why; `detect_log` consumes nothing and names a log kind;
//! `sniff_log` gives back every byte it read, in order.
#![no_main]

use std::io::Read;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let detected = mplp_check::detect(data);
    let (kind, report) = mplp_check::validate_bytes(None, data);
    match detected {
        Ok(k) => assert_eq!(kind.map(|k| k.name), Some(k.name)),
        Err(v) => {
            assert!(kind.is_none());
            assert_eq!(report.violations(), [v]);
        }
    }
    let mut reader = std::io::Cursor::new(data);
    let log = mplp_check::detect_log(&mut reader);
    assert!(log.is_ok_and(mplp_check::DocKind::is_log));
    assert_eq!(reader.position(), 0, "detect_log consumed input");
    // A tiny read buffer: sniffing must not depend on how the bytes arrive.
    let sniffed = mplp_check::sniff_log(std::io::BufReader::with_capacity(3, data));
    let mut sniffed = sniffed.unwrap_or_else(|e| panic!("sniff_log failed on bytes: {e}"));
    let mut back = Vec::new();
    sniffed.reader.read_to_end(&mut back).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, data, "sniff_log lost or changed bytes");
    let whole = mplp_check::sniff_log(data).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(whole.is_log, sniffed.is_log, "the read buffer changed the verdict");
});
