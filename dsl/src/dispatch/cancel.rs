//! [`CancelToken`]: a way to stop calls that are running, from anywhere.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

/// A cancellation signal shared by the calls it is given to (through
/// [`CallOptions::cancel`](crate::dispatch::CallOptions::cancel)); clones share one signal.
///
/// Cancelling resolves every call still running with a "cancelled" error result at its next
/// poll, dropping the tool's future (so a tool stops at an `.await`; a tool that blocks its
/// thread runs to the end of the block). Calls not yet started are answered at once.
#[derive(Clone, Default)]
pub struct CancelToken {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    cancelled: AtomicBool,
    next: AtomicU64,
    /// The wakers of the futures waiting on this token, by waiter id.
    waiters: Mutex<Vec<(u64, Waker)>>,
}

impl CancelToken {
    /// A token not cancelled yet.
    pub fn new() -> Self {
        CancelToken::default()
    }

    /// Cancels every call that holds this token.
    pub fn cancel(&self) {
        self.inner.cancelled.store(true, Ordering::SeqCst);
        let waiters =
            std::mem::take(&mut *self.inner.waiters.lock().unwrap_or_else(|e| e.into_inner()));
        for (_, w) in waiters {
            w.wake();
        }
    }

    /// Whether [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::SeqCst)
    }

    /// A future that completes once the token is cancelled.
    pub fn cancelled(&self) -> Cancelled {
        Cancelled { token: self.clone(), id: None }
    }
}

impl fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CancelToken").field("cancelled", &self.is_cancelled()).finish()
    }
}

/// The future of [`CancelToken::cancelled`].
#[derive(Debug)]
#[must_use = "futures do nothing unless polled"]
pub struct Cancelled {
    token: CancelToken,
    id: Option<u64>,
}

impl Future for Cancelled {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.token.is_cancelled() {
            return Poll::Ready(());
        }
        let this = &mut *self;
        let next = &this.token.inner.next;
        let id = *this.id.get_or_insert_with(|| next.fetch_add(1, Ordering::Relaxed));
        let mut waiters = self.token.inner.waiters.lock().unwrap_or_else(|e| e.into_inner());
        // Checked again under the lock, so a `cancel` between the two checks is not missed.
        if self.token.is_cancelled() {
            return Poll::Ready(());
        }
        match waiters.iter_mut().find(|(i, _)| *i == id) {
            Some((_, w)) if w.will_wake(cx.waker()) => {}
            Some((_, w)) => *w = cx.waker().clone(),
            None => waiters.push((id, cx.waker().clone())),
        }
        Poll::Pending
    }
}

impl Drop for Cancelled {
    fn drop(&mut self) {
        if let Some(id) = self.id {
            let mut waiters = self.token.inner.waiters.lock().unwrap_or_else(|e| e.into_inner());
            waiters.retain(|(i, _)| *i != id);
        }
    }
}
