"""Reference for core/analysis/group_difference, written from its definition with plain Python
(dense overlap matrices rather than the C++'s sparse maps): each group of A matched to the group
of B holding most of its members and each group of B to the group of A (ties to the lower row);
a token grouped on both sides kept its group when its two groups are each other's match, else it
moved; dropped on either side otherwise.
Usage: group_difference.py IN.json OUT.json; IN: {"a": [...], "b": [...]}; OUT: {"state": [...]}
with 0 same, 1 moved, 2 dropped in A, 3 dropped in B, 4 dropped in both."""
import json
import sys

d = json.load(open(sys.argv[1]))
a, b = d["a"], d["b"]
ma, mb = max(a + [-1]) + 1, max(b + [-1]) + 1
overlap = [[0] * mb for _ in range(ma)]
for x, y in zip(a, b):
    if x >= 0 and y >= 0:
        overlap[x][y] += 1
match_ab = [max(range(mb), key=lambda j: (row[j], -j)) for row in overlap]
match_ba = [max(range(ma), key=lambda i: (overlap[i][j], -i)) for j in range(mb)]
state = []
for x, y in zip(a, b):
    if x < 0 and y < 0:
        state.append(4)
    elif x < 0:
        state.append(2)
    elif y < 0:
        state.append(3)
    else:
        state.append(0 if match_ab[x] == y and match_ba[y] == x else 1)
json.dump({"state": state}, open(sys.argv[2], "w"))
