//! Which nodes of a directed graph lie on a cycle: the definitions that can reach themselves
//! through their references, which a provider without recursive schemas refuses.
//!
//! One pass of Tarjan's strongly connected components, linear in nodes and edges. The depth
//! first search keeps its path in a `Vec` rather than on the call stack: a descriptor from a
//! file can chain a million definitions, and a recursive search would overflow the stack.

/// Marks each node that can reach itself: the members of a strongly connected component of
/// two or more nodes, and any node with an edge to itself.
///
/// `edges[v]` lists the nodes `v` points to; every listed node must be below `edges.len()`.
pub(super) fn on_a_cycle(edges: &[Vec<usize>]) -> Vec<bool> {
    let mut search = Search::new(edges.len());
    for root in 0..edges.len() {
        if search.order[root] == UNSEEN {
            search.visit(root);
            search.run(edges);
        }
    }
    search.cyclic
}

/// The discovery number of a node the search has not reached yet.
const UNSEEN: usize = usize::MAX;

/// The state of Tarjan's search, indexed by node.
struct Search {
    /// The answer: whether the node can reach itself.
    cyclic: Vec<bool>,
    /// When the search first reached the node.
    order: Vec<usize>,
    /// The lowest discovery number the node reaches through the search tree and one edge back.
    low: Vec<usize>,
    /// Whether the node is on `open`, its component not yet closed.
    is_open: Vec<bool>,
    /// Nodes whose component is still open, in discovery order.
    open: Vec<usize>,
    /// The search path: a node and the index of the next of its edges to follow.
    path: Vec<(usize, usize)>,
    discovered: usize,
}

impl Search {
    fn new(n: usize) -> Self {
        Search {
            cyclic: vec![false; n],
            order: vec![UNSEEN; n],
            low: vec![0; n],
            is_open: vec![false; n],
            open: Vec::new(),
            path: Vec::new(),
            discovered: 0,
        }
    }

    /// Reaches `v` for the first time and puts it on the path.
    fn visit(&mut self, v: usize) {
        self.order[v] = self.discovered;
        self.low[v] = self.discovered;
        self.discovered += 1;
        self.is_open[v] = true;
        self.open.push(v);
        self.path.push((v, 0));
    }

    /// Searches until the path is empty, closing each component as its root is left.
    fn run(&mut self, edges: &[Vec<usize>]) {
        while let Some(top) = self.path.last_mut() {
            let v = top.0;
            if let Some(&w) = edges[v].get(top.1) {
                top.1 += 1;
                if w == v {
                    self.cyclic[v] = true;
                } else if self.order[w] == UNSEEN {
                    self.visit(w);
                } else if self.is_open[w] {
                    self.low[v] = self.low[v].min(self.order[w]);
                }
                continue;
            }
            // Every edge of `v` followed: its parent on the path reaches what it reaches.
            self.path.pop();
            if let Some(&(parent, _)) = self.path.last() {
                self.low[parent] = self.low[parent].min(self.low[v]);
            }
            if self.low[v] == self.order[v] {
                self.close(v);
            }
        }
    }

    /// Closes the component rooted at `v`: `v` and the nodes opened after it. A component of
    /// one node is a cycle only through an edge to itself, marked when that edge was followed.
    fn close(&mut self, v: usize) {
        while let Some(member) = self.open.pop() {
            self.is_open[member] = false;
            if member == v {
                break;
            }
            self.cyclic[member] = true;
            self.cyclic[v] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::on_a_cycle;

    /// The nodes [`on_a_cycle`] marks, in order.
    fn marked(edges: &[Vec<usize>]) -> Vec<usize> {
        on_a_cycle(edges).iter().enumerate().filter(|(_, c)| **c).map(|(i, _)| i).collect()
    }

    #[test]
    fn a_tree_or_a_diamond_has_no_cycle() {
        assert_eq!(marked(&[]), Vec::<usize>::new());
        assert_eq!(marked(&[vec![1, 2], vec![3], vec![3], vec![]]), Vec::<usize>::new());
        // The same node referred to twice is not a cycle either.
        assert_eq!(marked(&[vec![1, 1], vec![]]), Vec::<usize>::new());
    }

    #[test]
    fn a_node_referring_to_itself_is_on_a_cycle_and_its_neighbours_are_not() {
        assert_eq!(marked(&[vec![1], vec![1, 2], vec![]]), [1]);
    }

    #[test]
    fn every_member_of_a_cycle_is_marked_and_what_leads_into_it_or_out_of_it_is_not() {
        // 0 -> 1 -> 2 -> 3 -> 1, 3 -> 4; and 5 <-> 6 apart.
        let edges = [vec![1], vec![2], vec![3], vec![1, 4], vec![], vec![6], vec![5]];
        assert_eq!(marked(&edges), [1, 2, 3, 5, 6]);
    }

    #[test]
    fn the_order_of_nodes_does_not_change_the_answer() {
        // The cycle 3 -> 2 -> 1 -> 3 is found from its last node first, then from node 0.
        let edges = [vec![1], vec![3], vec![1], vec![2]];
        assert_eq!(marked(&edges), [1, 2, 3]);
    }

    #[test]
    fn a_cycle_through_a_million_nodes_does_not_overflow_the_stack() {
        let n = 1_000_000;
        let mut edges: Vec<Vec<usize>> = (0..n).map(|i| vec![i + 1]).collect();
        edges[n - 1] = vec![n / 2];
        let cyclic = on_a_cycle(&edges);
        assert!(cyclic[n / 2..].iter().all(|c| *c));
        assert!(!cyclic[..n / 2].iter().any(|c| *c));
    }
}
