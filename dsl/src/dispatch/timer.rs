//! Timers for call timeouts without an async runtime: the [`Timer`] trait (any runtime's
//! sleep fits it) and [`ThreadTimer`], the default, which needs no runtime at all.
//!
//! `tooldef` does not depend on an async runtime, so a timeout cannot borrow one's timer.
//! [`ThreadTimer`] keeps every pending deadline in one heap served by a single background
//! thread, started on first use; its sleeps wake whatever executor polls them (tokio,
//! async-std, smol, [`block_on`](crate::dispatch::block_on)). A program that would rather use
//! its runtime's timer (tokio's paused clock in tests, say) implements [`Timer`] in one line:
//! `Box::pin(tokio::time::sleep(duration))`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex, OnceLock, Weak};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use crate::tool::BoxFuture;

/// A source of sleeps: what a call timeout waits on.
pub trait Timer: Send + Sync {
    /// A future that completes once `duration` has passed.
    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()>;
}

/// The default [`Timer`]: one shared background thread, no async runtime needed.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreadTimer;

impl Timer for ThreadTimer {
    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()> {
        Box::pin(Sleep { deadline: Instant::now() + duration, slot: None })
    }
}

/// What a pending sleep and the timer thread share.
#[derive(Default)]
struct Slot {
    done: bool,
    waker: Option<Waker>,
}

struct Entry {
    deadline: Instant,
    seq: u64,
    slot: Weak<Mutex<Slot>>,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        (self.deadline, self.seq) == (other.deadline, other.seq)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.deadline, self.seq).cmp(&(other.deadline, other.seq))
    }
}

#[derive(Default)]
struct Heap {
    entries: BinaryHeap<Reverse<Entry>>,
    seq: u64,
}

struct Shared {
    heap: Mutex<Heap>,
    changed: Condvar,
}

/// The timer thread, started on first use; `None` if the thread could not be started (then
/// sleeps never complete and timeouts do not fire, which is logged once).
fn shared() -> Option<&'static Shared> {
    static SHARED: OnceLock<Option<&'static Shared>> = OnceLock::new();
    *SHARED.get_or_init(|| {
        let shared: &'static Shared =
            Box::leak(Box::new(Shared { heap: Mutex::default(), changed: Condvar::new() }));
        let spawned =
            std::thread::Builder::new().name("tooldef-timer".into()).spawn(move || run(shared));
        match spawned {
            Ok(_) => Some(shared),
            Err(e) => {
                tracing::error!(error = %e, "could not start the timer thread; call timeouts are off");
                None
            }
        }
    })
}

fn run(shared: &'static Shared) {
    let mut heap = shared.heap.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let now = Instant::now();
        while heap.entries.peek().is_some_and(|Reverse(e)| e.deadline <= now) {
            let Some(Reverse(entry)) = heap.entries.pop() else { break };
            if let Some(slot) = entry.slot.upgrade() {
                let waker = {
                    let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
                    slot.done = true;
                    slot.waker.take()
                };
                if let Some(w) = waker {
                    w.wake();
                }
            }
        }
        heap = match heap.entries.peek() {
            Some(Reverse(next)) => {
                let wait = next.deadline.saturating_duration_since(now);
                shared.changed.wait_timeout(heap, wait).unwrap_or_else(|e| e.into_inner()).0
            }
            None => shared.changed.wait(heap).unwrap_or_else(|e| e.into_inner()),
        };
    }
}

/// A [`ThreadTimer`] sleep; registers its deadline on first poll.
struct Sleep {
    deadline: Instant,
    slot: Option<Arc<Mutex<Slot>>>,
}

impl Future for Sleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if Instant::now() >= self.deadline {
            return Poll::Ready(());
        }
        match &self.slot {
            Some(slot) => {
                let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
                if slot.done {
                    return Poll::Ready(());
                }
                if !slot.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
                    slot.waker = Some(cx.waker().clone());
                }
            }
            None => {
                let Some(shared) = shared() else { return Poll::Pending };
                let slot =
                    Arc::new(Mutex::new(Slot { done: false, waker: Some(cx.waker().clone()) }));
                let mut heap = shared.heap.lock().unwrap_or_else(|e| e.into_inner());
                heap.seq += 1;
                let entry =
                    Entry { deadline: self.deadline, seq: heap.seq, slot: Arc::downgrade(&slot) };
                heap.entries.push(Reverse(entry));
                drop(heap);
                shared.changed.notify_one();
                self.slot = Some(slot);
            }
        }
        Poll::Pending
    }
}

impl fmt::Debug for Sleep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sleep").field("deadline", &self.deadline).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dispatch::block_on;

    #[test]
    fn sleeps_end_after_their_duration_in_deadline_order() {
        let start = Instant::now();
        block_on(ThreadTimer.sleep(Duration::from_millis(30)));
        assert!(start.elapsed() >= Duration::from_millis(30));
        // A short sleep registered after a long one still ends first.
        let long = ThreadTimer.sleep(Duration::from_secs(30));
        let mut long = std::pin::pin!(long);
        let waker = Waker::noop();
        assert!(long.as_mut().poll(&mut Context::from_waker(waker)).is_pending());
        let before = Instant::now();
        block_on(ThreadTimer.sleep(Duration::from_millis(10)));
        assert!(before.elapsed() < Duration::from_secs(30));
    }
}
