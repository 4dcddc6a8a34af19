//! The signals that ask a server to stop gently.

/// Completes on Ctrl-C, or SIGTERM on Unix. The signals are caught from the moment this is
/// called, not from its first poll, so one that arrives before the server waits for it still
/// stops the server gently.
pub(crate) fn shutdown_signal() -> impl std::future::Future<Output = ()> + Send {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{Signal, SignalKind, signal};
        async fn arrival(signal: Option<Signal>) {
            match signal {
                Some(mut signal) => {
                    signal.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        }
        let terminate = signal(SignalKind::terminate()).ok();
        let interrupt = signal(SignalKind::interrupt()).ok();
        async move {
            tokio::select! {
                () = arrival(terminate) => {}
                () = arrival(interrupt) => {}
            }
        }
    }
    #[cfg(not(unix))]
    {
        let interrupt = tokio::signal::ctrl_c();
        async move {
            if interrupt.await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }
}
