//! Any bytes, as lines on one connection: the decoder, the dispatcher and both eras, with
//! the session state the earlier lines left. Nothing may panic, and every request gets
//! one answer at most.
#![no_main]

mod tools;

use libfuzzer_sys::fuzz_target;
use mcp_toolkit::__bench::LineEngine;
use mcp_toolkit::{Server, tools};

fuzz_target!(|data: &[u8]| {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let _inside = runtime.enter();
    let server = Server::new("fuzz", "1.0.0").tools(tools![tools::calculator, tools::search, tools::count]);
    let mut engine = LineEngine::new(server).unwrap();
    for line in data.split(|b| *b == b'\n') {
        for answer in engine.handle(line) {
            assert!(
                serde_json_is_valid(&answer),
                "an answer that is not JSON: {answer:?}"
            );
        }
    }
});

fn serde_json_is_valid(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|text| text.starts_with('{') || text.starts_with('['))
}
