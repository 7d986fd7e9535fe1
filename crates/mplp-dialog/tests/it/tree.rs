//! The dialog tree's records: forks that cannot be recorded, owners, and
//! what an empty tree says.

use mplp_core::DialogId;
use mplp_dialog::{DialogTree, DialogTreeNode, TreeError};

#[test]
fn a_fork_of_a_dialog_from_itself_or_into_a_known_dialog_is_refused() {
    let (a, b, c) = (DialogId::new(), DialogId::new(), DialogId::new());
    let mut tree = DialogTree::new();
    assert!(tree.is_empty());
    assert_eq!(
        tree.record_fork(a, a, 1, 0, 1),
        Err(TreeError::Duplicate(a))
    );
    assert!(tree.is_empty(), "nothing recorded");
    tree.record_fork(a, b, 2, 1, 1).unwrap();
    assert!(!tree.is_empty());
    assert_eq!(tree.len(), 2);
    // b is known: neither a fork into it nor its fork from itself.
    assert_eq!(
        tree.record_fork(c, b, 1, 0, 1),
        Err(TreeError::Duplicate(b))
    );
    assert_eq!(
        tree.record_fork(b, b, 1, 0, 1),
        Err(TreeError::Duplicate(b))
    );
    assert_eq!(tree.len(), 2, "c was not added as a root");
    assert_eq!(tree.roots().collect::<Vec<_>>(), [a]);
    assert_eq!(tree.depth(&b), Some(1));
    assert_eq!(tree.subtree_ids(&a), [a, b]);
}

#[test]
fn an_owner_is_set_only_on_a_dialog_of_the_tree() {
    let (a, b, stranger) = (DialogId::new(), DialogId::new(), DialogId::new());
    let mut tree = DialogTree::new();
    tree.add_root(a);
    tree.record_fork(a, b, 2, 1, 1).unwrap();
    assert!(tree.set_owner(&b, "reviewer"));
    assert!(!tree.set_owner(&stranger, "nobody"));
    assert_eq!(tree.node(&b).unwrap().owner.as_deref(), Some("reviewer"));
    assert_eq!(tree.node(&a).unwrap().owner, None);
    assert_eq!(tree.len(), 2, "the stranger was not added");
    assert!(
        tree.render().contains(&format!("{b} owner=reviewer")),
        "{}",
        tree.render()
    );
    // The same owner read back from a node list.
    let rebuilt = DialogTree::from_nodes(tree.nodes().cloned()).unwrap();
    assert_eq!(rebuilt, tree);
    let root = DialogTreeNode::root(a).with_owner("lead");
    assert!(root.is_root());
    assert_eq!(root.owner.as_deref(), Some("lead"));
}
