//! The echo floor: reads a line, finds `id` and `method` by a byte scan, writes a canned
//! answer of the right shape and flushes. No JSON parser, no framework: the physical limit
//! of a stdio pipe for this load generator.

use std::io::{BufRead, BufReader, Write};

fn main() -> std::io::Result<()> {
    let mut input = BufReader::with_capacity(1 << 20, std::io::stdin().lock());
    let mut output = std::io::stdout().lock();
    let mut line = Vec::new();
    let mut reply = Vec::with_capacity(256);
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        reply.clear();
        if scan::answer(&line, &mut reply) {
            reply.push(b'\n');
            output.write_all(&reply)?;
            output.flush()?;
        }
    }
}
