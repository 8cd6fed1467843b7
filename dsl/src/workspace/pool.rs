//! The running commands of one workspace: at most
//! [`WorkspaceOptions::max_concurrent_commands`](super::WorkspaceOptions::max_concurrent_commands)
//! at once, the other calls waiting their turn in the order they came (without a thread), and
//! every running one reachable to be killed ([`super::Workspace::kill_commands`]).
//!
//! A slot is held from before the process starts until after it is reaped, so the number of
//! live command processes (and of the threads and pipes that serve them) never exceeds the cap.
//!
//! Owns the slots and the list of running commands; running one is [`super::command`]'s.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::Thread;

use super::command::Control;
use super::lock;

/// The slots of one workspace's commands.
pub(crate) struct CommandPool {
    limit: usize,
    state: Mutex<PoolState>,
}

#[derive(Default)]
struct PoolState {
    /// Slots taken (by running commands, and handed to a waiter not yet back).
    taken: usize,
    next_ticket: u64,
    /// Calls waiting for a slot, first come first served.
    queue: VecDeque<(u64, Waker)>,
    /// Waiters a freed slot was handed to, not yet back to take it.
    handed: Vec<u64>,
    /// The commands running now, by ticket.
    live: HashMap<u64, Arc<Control>>,
}

impl fmt::Debug for CommandPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = lock(&self.state);
        f.debug_struct("CommandPool")
            .field("limit", &self.limit)
            .field("taken", &state.taken)
            .field("waiting", &state.queue.len())
            .finish()
    }
}

impl CommandPool {
    /// A pool of `limit` slots (at least one).
    pub(crate) fn new(limit: usize) -> Self {
        CommandPool { limit: limit.max(1), state: Mutex::new(PoolState::default()) }
    }

    /// A place in the line for one call.
    pub(crate) fn ticket(self: &Arc<Self>) -> Ticket {
        let mut state = lock(&self.state);
        let id = state.next_ticket;
        state.next_ticket += 1;
        Ticket { pool: Arc::clone(self), id, done: false }
    }

    /// Kills every command running now; returns how many there were. Their calls end with
    /// [`super::CommandFailure::Killed`]; calls still waiting for a slot are not affected.
    pub(crate) fn kill_all(&self) -> usize {
        let live: Vec<Arc<Control>> = lock(&self.state).live.values().cloned().collect();
        for control in &live {
            control.cancel();
        }
        live.len()
    }

    fn poll_slot(&self, id: u64, cx: &mut Context<'_>) -> Poll<()> {
        let mut state = lock(&self.state);
        if let Some(at) = state.handed.iter().position(|&t| t == id) {
            state.handed.swap_remove(at);
            return Poll::Ready(());
        }
        if let Some(entry) = state.queue.iter_mut().find(|(t, _)| *t == id) {
            entry.1.clone_from(cx.waker());
            return Poll::Pending;
        }
        if state.taken < self.limit && state.queue.is_empty() {
            state.taken += 1;
            return Poll::Ready(());
        }
        state.queue.push_back((id, cx.waker().clone()));
        Poll::Pending
    }

    /// Gives a slot back: to the first waiter, or to the pool.
    fn release(&self) {
        let next = {
            let mut state = lock(&self.state);
            match state.queue.pop_front() {
                Some((id, waker)) => {
                    state.handed.push(id);
                    Some(waker)
                }
                None => {
                    state.taken -= 1;
                    None
                }
            }
        };
        if let Some(waker) = next {
            waker.wake();
        }
    }

    /// A waiter that leaves: out of the line, and a slot handed to it passed on.
    fn leave(&self, id: u64) {
        let handed = {
            let mut state = lock(&self.state);
            state.queue.retain(|(t, _)| *t != id);
            match state.handed.iter().position(|&t| t == id) {
                Some(at) => {
                    state.handed.swap_remove(at);
                    true
                }
                None => false,
            }
        };
        if handed {
            self.release();
        }
    }
}

/// One call's place in the line, until it holds a slot ([`Ticket::slot`]).
pub(crate) struct Ticket {
    pool: Arc<CommandPool>,
    id: u64,
    /// Whether the ticket became a slot (or was given up): nothing to undo on drop.
    done: bool,
}

impl Ticket {
    /// Waits for a slot, without a thread.
    pub(crate) fn poll_slot(&mut self, cx: &mut Context<'_>) -> Poll<Slot> {
        if self.done {
            // Polled again after its slot was taken: a second slot would break the cap.
            return Poll::Pending;
        }
        match self.pool.poll_slot(self.id, cx) {
            Poll::Ready(()) => {
                self.done = true;
                Poll::Ready(Slot { pool: Arc::clone(&self.pool), id: self.id, control: None })
            }
            Poll::Pending => Poll::Pending,
        }
    }

    /// Waits for a slot, blocking this thread.
    pub(crate) fn wait_blocking(mut self) -> Slot {
        struct Unpark(Thread);
        impl Wake for Unpark {
            fn wake(self: Arc<Self>) {
                self.0.unpark();
            }
        }
        let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
        let mut cx = Context::from_waker(&waker);
        loop {
            if let Poll::Ready(slot) = self.poll_slot(&mut cx) {
                return slot;
            }
            std::thread::park();
        }
    }
}

impl Future for Ticket {
    type Output = Slot;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Slot> {
        self.poll_slot(cx)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if !self.done {
            self.pool.leave(self.id);
        }
    }
}

/// A slot for one command: given back when dropped (after the process is reaped).
pub(crate) struct Slot {
    pool: Arc<CommandPool>,
    id: u64,
    control: Option<Arc<Control>>,
}

impl Slot {
    /// Lists the command's control among the running ones, so that
    /// [`CommandPool::kill_all`] reaches it.
    pub(crate) fn track(&mut self, control: &Arc<Control>) {
        lock(&self.pool.state).live.insert(self.id, Arc::clone(control));
        self.control = Some(Arc::clone(control));
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if self.control.take().is_some() {
            lock(&self.pool.state).live.remove(&self.id);
        }
        self.pool.release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noop() -> Context<'static> {
        Context::from_waker(Waker::noop())
    }

    #[test]
    fn slots_past_the_limit_wait_in_order_and_a_leaver_passes_its_turn_on() {
        let pool = Arc::new(CommandPool::new(2));
        let mut cx = noop();
        let (mut a, mut b, mut c, mut d) =
            (pool.ticket(), pool.ticket(), pool.ticket(), pool.ticket());
        let sa = a.poll_slot(&mut cx);
        let sb = b.poll_slot(&mut cx);
        assert!(sa.is_ready() && sb.is_ready());
        assert!(c.poll_slot(&mut cx).is_pending());
        assert!(d.poll_slot(&mut cx).is_pending());
        drop(sa);
        // `c` came first: the freed slot is its, then `d` waits for the next one.
        drop(c);
        let Poll::Ready(sd) = d.poll_slot(&mut cx) else { panic!("d should hold the slot c left") };
        assert_eq!(lock(&pool.state).taken, 2);
        drop((sb, sd));
        assert_eq!(lock(&pool.state).taken, 0);
        assert!(lock(&pool.state).queue.is_empty() && lock(&pool.state).handed.is_empty());
    }
}
