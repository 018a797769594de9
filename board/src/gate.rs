//! The door of the server: how many connections it holds at once, and how long a request's head
//! may take to arrive, so that slow or idle clients cannot hold threads and file descriptors for
//! ever. A connection still sending its head when the door is full makes way for the newcomer
//! (oldest first): a client that sends its request at once, as the board's own page does, is
//! served however many slow ones are waiting.

use std::collections::BTreeMap;
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The connections the server holds, with those still sending their request's head.
pub struct Gate {
    max: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next: u64,
    open: usize,
    /// Connections still sending their head: since when, and a handle to close them.
    heads: BTreeMap<u64, (Instant, TcpStream)>,
}

/// One admitted connection; dropping it lets it out.
pub struct Ticket {
    gate: Arc<Gate>,
    id: u64,
}

impl Gate {
    pub fn new(max: usize) -> Arc<Gate> {
        Arc::new(Gate {
            max,
            inner: Mutex::new(Inner::default()),
        })
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Admits `stream`, closing the oldest connection still sending its head if the door is
    /// full; `None` when it is full of connections past their head (the caller refuses at once).
    pub fn admit(self: &Arc<Gate>, stream: &TcpStream) -> Option<Ticket> {
        let mut inner = self.inner();
        if inner.open >= self.max {
            let oldest = *inner.heads.keys().next()?;
            if let Some((_, slow)) = inner.heads.remove(&oldest) {
                log::debug!("connection {oldest} closed: the server is full and its head is late");
                let _ = slow.shutdown(Shutdown::Both);
            }
        }
        let handle = stream.try_clone().ok()?;
        let id = inner.next;
        inner.next += 1;
        inner.open += 1;
        inner.heads.insert(id, (Instant::now(), handle));
        Some(Ticket {
            gate: Arc::clone(self),
            id,
        })
    }

    /// Closes the connections whose head has taken longer than `deadline`.
    pub fn close_late(&self, deadline: Duration) {
        let mut inner = self.inner();
        let late: Vec<u64> = inner
            .heads
            .iter()
            .filter(|(_, (since, _))| since.elapsed() > deadline)
            .map(|(&id, _)| id)
            .collect();
        for id in late {
            if let Some((_, stream)) = inner.heads.remove(&id) {
                log::debug!("connection {id} closed: its request's head took too long");
                let _ = stream.shutdown(Shutdown::Both);
            }
        }
    }
}

impl Ticket {
    /// The head has arrived: the connection is no longer subject to the head's deadline.
    pub fn head_done(&self) {
        self.gate.inner().heads.remove(&self.id);
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut inner = self.gate.inner();
        inner.heads.remove(&self.id);
        inner.open -= 1;
    }
}
