use mcp_toolkit::tools;

struct Calculator;

fn main() {
    let _ = tools![Calculator];
}
