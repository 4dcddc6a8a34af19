//! The HTTP floor: bare hyper (the HTTP/1.1 server mcp-toolkit builds on), one thread,
//! keep-alive, answering each POST with a canned JSON-RPC answer of the right shape found
//! by a byte scan (202 for a notification). No routing, no sessions, no JSON parser.
//!
//!     http-floor --http 127.0.0.1:8080

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr = match (args.next().as_deref(), args.next()) {
        (Some("--http"), Some(addr)) => addr,
        _ => {
            eprintln!("usage: http-floor --http ADDR");
            std::process::exit(2);
        }
    };
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        stream.set_nodelay(true)?;
        tokio::spawn(async move {
            let served = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service_fn(answer))
                .await;
            if let Err(error) = served {
                eprintln!("connection: {error}");
            }
        });
    }
}

async fn answer(request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let status = |status: StatusCode| {
        let mut response = Response::new(Full::new(Bytes::new()));
        *response.status_mut() = status;
        Ok(response)
    };
    if request.method() != Method::POST {
        return status(StatusCode::METHOD_NOT_ALLOWED);
    }
    let Ok(body) = request.into_body().collect().await else {
        return status(StatusCode::BAD_REQUEST);
    };
    let mut reply = Vec::with_capacity(256);
    if !scan::answer(&body.to_bytes(), &mut reply) {
        return status(StatusCode::ACCEPTED);
    }
    let mut response = Response::new(Full::new(Bytes::from(reply)));
    response.headers_mut().insert(
        "content-type",
        hyper::header::HeaderValue::from_static("application/json"),
    );
    Ok(response)
}
