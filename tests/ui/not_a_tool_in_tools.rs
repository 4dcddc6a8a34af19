use mcp_tools::tools;

struct Calculator;

fn main() {
    let _ = tools![Calculator];
}
