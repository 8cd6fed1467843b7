//! The two small pieces of async machinery dispatch needs without an async runtime: a future
//! that turns a panic while polling into a value, and a blocking driver for sync callers.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

/// A future that resolves to `Err(panic message)` when polling `F` panics.
///
/// Wraps only `Unpin` futures (such as [`crate::BoxFuture`]), so no pinning projection is needed.
#[derive(Debug)]
#[must_use = "futures do nothing unless polled"]
pub struct CatchUnwind<F> {
    inner: Option<F>,
}

impl<F> CatchUnwind<F> {
    /// Wraps `future`.
    pub fn new(future: F) -> Self {
        CatchUnwind { inner: Some(future) }
    }
}

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let Some(inner) = self.inner.as_mut() else {
            return Poll::Ready(Err("the future was polled after it completed".to_owned()));
        };
        // The future is dropped right after a panic and never polled again, so whatever state
        // the panic left behind is never observed.
        match catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(out)) => {
                self.inner = None;
                Poll::Ready(Ok(out))
            }
            Err(payload) => {
                self.inner = None;
                Poll::Ready(Err(panic_message(payload.as_ref())))
            }
        }
    }
}

/// The text of a panic payload (`panic!("...")` carries a `&str` or a `String`).
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

struct ThreadWaker(Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Drives `future` to completion on the current thread, parking it while the future waits.
///
/// Meant for sync callers and tests. A future that needs a specific runtime's reactor (tokio
/// timers or sockets) must be driven by that runtime instead.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let waker = Waker::from(Arc::new(ThreadWaker(thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
        thread::park();
    }
}
