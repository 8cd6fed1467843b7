//! The small pieces of async machinery dispatch needs without an async runtime: a future
//! that turns a panic while polling into a value, a blocking driver for sync callers, and the
//! panic hook filter that keeps a tool's panic out of stderr.
//!
//! # Tool panics and the panic hook
//!
//! A panic caught by dispatch still runs the process's panic hook first, and the default hook
//! prints the message and a backtrace hint to stderr: noise for a failure that became an
//! error result. So the first time dispatch catches anything it installs, once per process, a
//! hook that *wraps* whichever hook is in place then (the default or the program's own): a
//! panic raised while a tool runs under dispatch's [`catch_unwind`] on that thread is
//! recorded (message and location, logged through `tracing` with the tool's name) and not
//! passed on; every other panic goes to the wrapped hook exactly as before. A program that
//! sets its own hook afterwards replaces the filter (its hook then sees tool panics too), and
//! one that wants tool panics to reach its hook calls [`set_quiet_panics`]`(false)` first.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::panic::{self, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

static QUIET: AtomicBool = AtomicBool::new(true);
static INSTALL: Once = Once::new();

thread_local! {
    /// How many dispatch `catch_unwind`s are running on this thread.
    static CATCHING: Cell<usize> = const { Cell::new(0) };
    /// Where the last panic caught on this thread was raised.
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Whether a panic inside a tool skips the panic hook (`true`, the default).
///
/// The first time dispatch catches a panic it installs, once per process, a hook that wraps
/// whichever hook is in place then: a panic raised while a tool runs under dispatch on that
/// thread is logged through `tracing` (message and location, with the tool's name) and not
/// passed on; every other panic goes to the wrapped hook as before. A program that sets its
/// own hook afterwards replaces the filter. Call this with `false` before the first dispatch
/// to leave the hook alone (tool panics then print as usual, and still become error results).
pub fn set_quiet_panics(quiet: bool) {
    QUIET.store(quiet, Ordering::SeqCst);
}

fn install_filter() {
    if !QUIET.load(Ordering::SeqCst) {
        return;
    }
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if CATCHING.with(Cell::get) > 0 {
                let at =
                    info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                LOCATION.with(|l| *l.borrow_mut() = at);
                return;
            }
            previous(info);
        }));
    });
}

/// `std::panic::catch_unwind` for dispatch: the panic's message (with where it was raised)
/// instead of its payload, and no trip through the panic hook (see the module docs).
pub(crate) fn catch_unwind<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    install_filter();
    CATCHING.with(|c| c.set(c.get() + 1));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(c.get() - 1));
    result.map_err(|payload| {
        let message = panic_message(payload.as_ref());
        match LOCATION.with(|l| l.borrow_mut().take()) {
            Some(at) => format!("{message} (at {at})"),
            None => message,
        }
    })
}

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
        match catch_unwind(|| Pin::new(inner).poll(cx)) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(out)) => {
                self.inner = None;
                Poll::Ready(Ok(out))
            }
            Err(message) => {
                self.inner = None;
                Poll::Ready(Err(message))
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
