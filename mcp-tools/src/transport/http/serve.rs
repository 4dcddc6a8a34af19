//! The serving loop: accepts connections and serves each with hyper's HTTP/1.1, the
//! endpoint's [`handle`] as its service, until shutdown.

use super::app::HttpApp;
use super::endpoint::handle;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Serves the endpoint on `listener` until `shutdown` completes, then stops accepting, ends
/// the open streams and sessions, lets every connection finish the request it is serving and
/// returns. Idle sessions are swept on a timer meanwhile.
///
/// Each connection is hyper's HTTP/1.1 connection with [`handle`] as
/// its service: no router, protocol detection or middleware stack stands between a request
/// and the endpoint (`Server::into_router` wraps the same `handle` for axum applications).
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<HttpApp>,
    shutdown: impl Future<Output = ()> + Send + 'static,
    signals: bool,
) -> std::io::Result<()> {
    // Idle sessions end on time even when no new session comes to trigger a sweep.
    let sweeper = {
        let app = Arc::clone(&app);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(app.sessions.sweep_period());
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                app.sessions.expire();
            }
        })
    };
    let connections = TaskTracker::new();
    // Tells every connection to finish the request it serves and close.
    let closing = CancellationToken::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                // Out of file descriptors, or a connection reset before it was accepted:
                // the listener itself is fine. Waiting a moment lets descriptors free up
                // instead of spinning on the same error.
                tracing::warn!(%error, "could not accept a connection");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // Answers go out at once instead of waiting on Nagle's algorithm.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
        let app = Arc::clone(&app);
        let head_timeout = app.options.settings.request_head_timeout;
        let closing = closing.clone();
        connections.spawn(async move {
            // Cancelled to drop the connection at once: an event stream whose client takes
            // nothing is ended so, with what hyper holds for it.
            let close = CancellationToken::new();
            let service = {
                let close = close.clone();
                hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                    let request = request.map(axum::body::Body::new);
                    // Boxed, so an open stream does not keep room for the handler it no
                    // longer runs in its connection's task.
                    let handled = Box::pin(handle(
                        Arc::clone(&app),
                        Some(peer.ip()),
                        Some(close.clone()),
                        request,
                    ));
                    async move { Ok::<_, std::convert::Infallible>(handled.await) }
                })
            };
            // A client that is slow to send a request's head, or keeps a connection idle,
            // does not hold it (and its memory) for ever.
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(head_timeout)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
            let mut connection = std::pin::pin!(connection);
            let served = tokio::select! {
                served = connection.as_mut() => served,
                () = close.cancelled() => {
                    tracing::debug!("closed a connection whose stream's client stalled");
                    Ok(())
                }
                () = closing.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(error) = served {
                tracing::debug!(%error, "an HTTP connection ended with an error");
            }
        });
    }
    drop(listener);
    app.shut_down();
    closing.cancel();
    connections.close();
    connections.wait().await;
    sweeper.abort();
    // Then the tasks running here, for the shutdown grace; a second signal (when signals
    // stop this server) cuts it short.
    let again = async move {
        if signals {
            crate::transport::signal::shutdown_signal().await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    app.engine.finish_tasks(again).await;
    Ok(())
}
