#!/usr/bin/env python3
"""Writes a throwaway crate with N `#[tool]` fns for run.sh.

    gen.py DIR NAME N MCP_TOOLS_PATH [--plain]

The tools cycle through six shapes a real server has: async and sync fns; parameters of
type f64, String, Option<u32>, Vec<String>, Vec<f64> and enums deriving Deserialize +
JsonSchema; doc comments on the parameters or as an `# Arguments` list; `#[default(..)]`;
results that are text, numbers, `Json<Struct>` and `Result<_, ToolError>`. Tool 0 holds the
line run.sh edits for the incremental build (`EDIT_LINE`).

With --plain the same fns are written without `#[tool]`, parameter attributes or
`tools![...]`, to measure what the macro adds on top of the fns themselves.
"""

import sys
from pathlib import Path
from string import Template

# The line of tool 0 that run.sh edits (1e12 <-> 1e13) for the incremental build.
EDIT_LINE = "    const MAX_ABS: f64 = 1e12; // run.sh edits this number"

PRELUDE = """\
//! $n generated tools: a throwaway crate of bench/compile-time/run.sh.
$allow
use mcp_toolkit::{Json, Server, ToolError$macros};

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Operation {
    Add,
    Subtract,
    Multiply,
    Divide,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum SortOrder {
    Relevance,
    Newest,
    Oldest,
}

#[derive(Clone, Copy, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
    Kelvin,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct TextStats {
    characters: usize,
    words: usize,
    lines: usize,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct SearchHit {
    id: u32,
    title: String,
    score: f64,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct SearchPage {
    hits: Vec<SearchHit>,
    total: u32,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Summary {
    count: usize,
    mean: f64,
    min: f64,
    max: f64,
}
"""

SHAPES = [
    # async, enum + f64, per-parameter docs, annotations, Result<f64, _>
    (
        "calculator_$i",
        """
/// Perform basic arithmetic on two numbers.
#[tool(annotations(read_only, idempotent))]
async fn calculator_$i(
    /// The operation to perform
    operation: Operation,
    /// The first operand
    a: f64,
    /// The second operand
    b: f64,
) -> Result<f64, ToolError> {
$max_abs
    if a.abs() > MAX_ABS || b.abs() > MAX_ABS {
        return Err(ToolError::new("operands must be at most 1e12 in magnitude"));
    }
    match operation {
        Operation::Add => Ok(a + b),
        Operation::Subtract => Ok(a - b),
        Operation::Multiply => Ok(a * b),
        Operation::Divide if b == 0.0 => Err(ToolError::new("cannot divide by zero: `b` must be a non-zero number")),
        Operation::Divide => Ok(a / b),
    }
}
""",
    ),
    # sync, String + Option<u32>, `# Arguments`, name = "...", Json<Struct>
    (
        "analyze_$i",
        """
/// Count the characters, words and lines of a text.
///
/// # Arguments
/// * `text` - The text to analyze
/// * `max_lines` - Stop counting lines after this many
#[tool(name = "text_stats_$i")]
fn analyze_$i(text: String, max_lines: Option<u32>) -> Json<TextStats> {
    let limit = max_lines.unwrap_or($seed) as usize;
    Json(TextStats {
        characters: text.chars().count(),
        words: text.split_whitespace().count(),
        lines: text.lines().take(limit).count(),
    })
}
""",
    ),
    # async, String + Vec<String> + enum + Option<u32>, Result<Json<Struct>, _>
    (
        "search_$i",
        """
/// Search the catalog and return the best matches.
///
/// Results are ranked by relevance unless `sort` says otherwise. A search with no match is
/// not an error: it returns no hits.
///
/// # Arguments
/// * `query` - The words to search for
/// * `tags` - Only items carrying every one of these tags
/// * `sort` - The order of the hits
/// * `limit` - How many hits to return, at most 100
#[tool(annotations(read_only, open_world))]
async fn search_$i(
    query: String,
    tags: Vec<String>,
    sort: SortOrder,
    limit: Option<u32>,
) -> Result<Json<SearchPage>, ToolError> {
    if query.trim().is_empty() {
        return Err(ToolError::new("`query` must not be empty"));
    }
    let limit = limit.unwrap_or(10).min(100);
    let mut hits: Vec<SearchHit> = (0..limit)
        .map(|n| SearchHit { id: n * $seed, title: format!("{query} #{n}"), score: 1.0 / f64::from(n + 1) })
        .filter(|hit| tags.iter().all(|tag| hit.title.contains(tag.as_str())))
        .collect();
    match sort {
        SortOrder::Relevance => {}
        SortOrder::Newest => hits.reverse(),
        SortOrder::Oldest => hits.sort_by_key(|hit| hit.id),
    }
    let total = hits.len() as u32;
    Ok(Json(SearchPage { hits, total }))
}
""",
    ),
    # sync, Vec<String> + defaulted String + Option<u32>, per-parameter docs, String
    (
        "join_words_$i",
        """
/// Join words into one line, repeated if asked.
#[tool]
fn join_words_$i(
    /// The words to join
    words: Vec<String>,
    /// The separator between two words
    #[default(" ".to_string())]
    separator: String,
    /// Repeat the line this many times
    repeat: Option<u32>,
) -> String {
    let line = words.join(&separator);
    vec![line; repeat.unwrap_or(1).min($seed) as usize].join("\\n")
}
""",
    ),
    # async, f64 + two enums + Option<u32>, `# Arguments`, annotations with `= false`
    (
        "convert_temperature_$i",
        """
/// Convert a temperature from one unit to another.
///
/// # Arguments
/// * `value` - The temperature to convert
/// * `from` - The unit of `value`
/// * `to` - The unit to convert to
/// * `digits` - Decimal digits in the answer, at most 6
#[tool(annotations(read_only, idempotent, open_world = false))]
async fn convert_temperature_$i(value: f64, from: Unit, to: Unit, digits: Option<u32>) -> Result<String, ToolError> {
    let kelvin = match from {
        Unit::Celsius => value + 273.15,
        Unit::Fahrenheit => (value - 32.0) * 5.0 / 9.0 + 273.15,
        Unit::Kelvin => value,
    };
    if kelvin < 0.0 {
        return Err(ToolError::new(format!("{value} is below absolute zero")));
    }
    let out = match to {
        Unit::Celsius => kelvin - 273.15,
        Unit::Fahrenheit => (kelvin - 273.15) * 9.0 / 5.0 + 32.0,
        Unit::Kelvin => kelvin,
    };
    let digits = digits.unwrap_or($digits).min(6) as usize;
    Ok(format!("{out:.digits$$}"))
}
""",
    ),
    # sync, Vec<f64> + defaulted f64, per-parameter docs, Result<Json<Struct>, _>
    (
        "summarize_$i",
        """
/// Summarize a series of measurements: count, mean, minimum and maximum.
#[tool(title = "Summarize measurements")]
fn summarize_$i(
    /// The measurements
    values: Vec<f64>,
    /// Ignore values whose magnitude is above this
    #[default($seed.0)]
    cutoff: f64,
) -> Result<Json<Summary>, ToolError> {
    let kept: Vec<f64> = values.into_iter().filter(|v| v.abs() <= cutoff).collect();
    if kept.is_empty() {
        return Err(ToolError::new("no value at or below `cutoff`"));
    }
    let count = kept.len();
    let mean = kept.iter().sum::<f64>() / count as f64;
    let min = kept.iter().copied().fold(f64::INFINITY, f64::min);
    let max = kept.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Ok(Json(Summary { count, mean, min, max }))
}
""",
    ),
]


def tool_source(i: int, plain: bool) -> tuple[str, str]:
    ident, body = SHAPES[i % len(SHAPES)]
    max_abs = EDIT_LINE if i == 0 else "    const MAX_ABS: f64 = 1e12;"
    values = {"i": i, "seed": 10 + i % 90, "digits": 1 + i % 4, "max_abs": max_abs}
    source = Template(body).substitute(values)
    if plain:
        drop = ("#[tool", "    ///", "    #[default(")
        source = "\n".join(line for line in source.split("\n") if not line.startswith(drop))
    return Template(ident).substitute(values), source


def main_source(name: str, n: int, plain: bool) -> str:
    out = [
        Template(PRELUDE).substitute(
            n=n,
            allow="#![allow(dead_code)]\n" if plain else "",
            macros="" if plain else ", tool, tools",
        )
    ]
    idents = []
    for i in range(n):
        ident, source = tool_source(i, plain)
        idents.append(ident)
        out.append(source)
    tools = "" if plain else "\n        .tools(tools![\n" + "".join(f"            {t},\n" for t in idents) + "        ])"
    out.append(
        f"""
#[tokio::main]
async fn main() -> Result<(), mcp_toolkit::Error> {{
    Server::new("{name}", env!("CARGO_PKG_VERSION")){tools}
        .serve_stdio()
        .await
}}
"""
    )
    return "".join(out)


MANIFEST = """\
[package]
name = "$name"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
mcp-toolkit = { path = "$mcp_toolkit" }
tokio = { version = "1", features = ["rt-multi-thread", "macros"] }
serde = { version = "1", features = ["derive"] }
schemars = "1"

# Not a member of any enclosing workspace.
[workspace]
"""


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--plain"]
    plain = "--plain" in sys.argv[1:]
    if len(args) != 4:
        sys.exit(__doc__)
    crate_dir, name, n, mcp_toolkit = Path(args[0]), args[1], int(args[2]), args[3]
    (crate_dir / "src").mkdir(parents=True, exist_ok=True)
    (crate_dir / "Cargo.toml").write_text(Template(MANIFEST).substitute(name=name, mcp_toolkit=mcp_toolkit))
    (crate_dir / "src" / "main.rs").write_text(main_source(name, n, plain))


if __name__ == "__main__":
    main()
