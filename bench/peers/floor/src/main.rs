//! The floor: `calculator` and `text_analyzer` over stdio with no framework, only
//! `serde_json`. One thread, one `Value` per request, one flush per response: a lower bound
//! of what serving a tool call costs in software.

#[path = "../../tools.rs"]
mod tools;

use std::io::{BufRead, BufReader, BufWriter, Write};

use serde_json::{Value, json};

fn main() -> std::io::Result<()> {
    let mut input = BufReader::with_capacity(1 << 20, std::io::stdin().lock());
    let mut output = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Value>(&line) {
            // A notification (`notifications/initialized`, ...): nothing to answer.
            Ok(request) if request.get("id").is_none() => continue,
            Ok(request) => match answer(&request) {
                Ok(result) => json!({"jsonrpc": "2.0", "id": request["id"], "result": result}),
                Err((code, message)) => json!({"jsonrpc": "2.0", "id": request["id"],
                    "error": {"code": code, "message": message}}),
            },
            Err(e) => json!({"jsonrpc": "2.0", "id": null,
                "error": {"code": -32700, "message": e.to_string()}}),
        };
        serde_json::to_writer(&mut output, &reply)?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
}

/// The result of one request, or its JSON-RPC error code and message.
fn answer(request: &Value) -> Result<Value, (i64, String)> {
    let params = &request["params"];
    match request["method"].as_str().unwrap_or_default() {
        "initialize" => Ok(json!({
            "protocolVersion": params["protocolVersion"].as_str().unwrap_or("2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "floor", "version": env!("CARGO_PKG_VERSION")},
        })),
        "ping" => Ok(json!({})),
        "tools/list" => Ok(json!({"tools": [
            {"name": "calculator", "title": "Calculator",
             "description": "Perform basic arithmetic on two numbers.",
             "inputSchema": {"type": "object", "properties": {
                 "operation": {"type": "string", "enum": ["add", "subtract", "multiply", "divide"],
                               "description": "The operation to perform"},
                 "a": {"type": "number", "description": "The first operand"},
                 "b": {"type": "number", "description": "The second operand"}},
               "required": ["operation", "a", "b"], "additionalProperties": false},
             "annotations": {"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}},
            {"name": "text_analyzer", "title": "Text Analyzer",
             "description": "Count the characters and words of a text.",
             "inputSchema": {"type": "object",
               "properties": {"text": {"type": "string", "description": "The text to analyze"}},
               "required": ["text"], "additionalProperties": false},
             "outputSchema": {"type": "object", "properties": {
                 "characters": {"type": "integer", "minimum": 0,
                                "description": "Characters (Unicode scalar values) in the text."},
                 "words": {"type": "integer", "minimum": 0,
                           "description": "Words: runs of non-whitespace characters."}},
               "required": ["characters", "words"], "description": "What the analyzer counts."},
             "annotations": {"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}},
        ]})),
        "tools/call" => call(params["name"].as_str().unwrap_or_default(), &params["arguments"]),
        method => Err((-32601, format!("unknown method `{method}`"))),
    }
}

/// `tools/call`: a result, a tool error the model reads, or an unknown tool.
fn call(name: &str, args: &Value) -> Result<Value, (i64, String)> {
    let text = |text: String, is_error: bool| match is_error {
        true => json!({"content": [{"type": "text", "text": text}], "isError": true}),
        false => json!({"content": [{"type": "text", "text": text}]}),
    };
    match name {
        "calculator" => {
            let operation = args["operation"].as_str().and_then(tools::Operation::from_name);
            let (Some(operation), Some(a), Some(b)) = (operation, args["a"].as_f64(), args["b"].as_f64())
            else {
                return Ok(text(
                    "expected `operation` (add, subtract, multiply, divide), `a` and `b` numbers".into(),
                    true,
                ));
            };
            Ok(match tools::calculate(operation, a, b) {
                Ok(result) => text(result.to_string(), false),
                Err(message) => text(message.into(), true),
            })
        }
        "text_analyzer" => {
            let Some(input) = args["text"].as_str() else {
                return Ok(text("expected `text`, a string".into(), true));
            };
            let (characters, words) = tools::analyze(input);
            let stats = json!({"characters": characters, "words": words});
            Ok(json!({"content": [{"type": "text", "text": stats.to_string()}], "structuredContent": stats}))
        }
        _ => Err((
            -32602,
            format!("unknown tool `{name}`; expected one of `calculator`, `text_analyzer`"),
        )),
    }
}
