//! Any bytes as a tool's `arguments`: the argument split, each parameter's decoding and the
//! words of the error. Nothing may panic.
#![no_main]

mod tools;

use libfuzzer_sys::fuzz_target;
use mcp_toolkit::__bench::LineEngine;
use mcp_toolkit::{Server, tools};

fuzz_target!(|data: &[u8]| {
    let Ok(arguments) = std::str::from_utf8(data) else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let _inside = runtime.enter();
    let server = Server::new("fuzz", "1.0.0").tools(tools![tools::calculator, tools::search, tools::count]);
    let mut engine = LineEngine::new(server).unwrap();
    let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}"#;
    engine.handle(init);
    for name in ["calculator", "search"] {
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}}}}}"#
        );
        for answer in engine.handle(call.as_bytes()) {
            assert!(answer.starts_with(b"{"), "an answer that is not an object");
        }
    }
});
