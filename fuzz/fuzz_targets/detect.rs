//! Kind detection and dispatch (`mplp validate --kind auto`): no panic, a
//! detected kind is the one validated, an undetected input has exactly one
//! violation saying why.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let detected = mplp_validate::detect(data);
    let (kind, report) = mplp_validate::validate_bytes(None, data);
    match detected {
        Ok(k) => assert_eq!(kind, Some(k)),
        Err(v) => {
            assert_eq!(kind, None);
            assert_eq!(report.violations(), [v]);
        }
    }
    let mut reader = std::io::Cursor::new(data);
    let log = mplp_validate::detect_log(&mut reader);
    assert!(log.is_ok_and(mplp_validate::Kind::is_log));
    assert_eq!(reader.position(), 0, "detect_log consumed input");
});
