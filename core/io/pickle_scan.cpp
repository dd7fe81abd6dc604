// Abstract execution of a torch.save pickle: every value is a node of a graph (containers point
// at what they hold), so aliasing through the memo is modelled exactly; depth and cycles are then
// measured on the graph without recursion.
#include "io/pickle_scan.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "util/error.h"

namespace once {
namespace {

enum class Kind : std::uint8_t {
    None,
    Bool,
    Int,
    Float,
    Str,
    Global,
    Tuple,
    List,
    Dict,
    Storage,
    Tensor,
};

enum class Global : std::uint8_t { OrderedDict, RebuildTensor, RebuildParameter, StorageType };

// 16 bytes per value: a hostile pickle of n bytes costs at most a few times n bytes here.
struct Node {
    Kind kind = Kind::None;
    Global global = Global::OrderedDict;
    DType dtype = DType::F32;  ///< StorageType globals and Storage nodes
    std::uint32_t count = 0;   ///< Tuple: number of items
    std::int64_t value = 0;    ///< Int, Bool; Str: index into texts_; Tuple: first item in
                               ///< tupleItems_; Storage: index into PickleScan::storages;
                               ///< Tensor: index into tensors_
};

const char* kindName(Kind k) {
    switch (k) {
        case Kind::None:
            return "None";
        case Kind::Bool:
            return "bool";
        case Kind::Int:
            return "int";
        case Kind::Float:
            return "float";
        case Kind::Str:
            return "str";
        case Kind::Global:
            return "a global";
        case Kind::Tuple:
            return "tuple";
        case Kind::List:
            return "list";
        case Kind::Dict:
            return "dict";
        case Kind::Storage:
            return "storage";
        case Kind::Tensor:
            return "tensor";
    }
    return "?";
}

std::string printable(std::string_view s) {
    std::string out;
    for (char c : s.substr(0, 60)) {
        out += (c >= 32 && c < 127) ? c : '?';
    }
    return out + (s.size() > 60 ? "..." : "");
}

struct StorageName {
    const char* name;
    DType dtype;
};
constexpr StorageName kStorages[] = {
    {"DoubleStorage", DType::F64},    {"FloatStorage", DType::F32}, {"HalfStorage", DType::F16},
    {"BFloat16Storage", DType::BF16}, {"LongStorage", DType::I64},  {"IntStorage", DType::I32},
    {"ShortStorage", DType::I16},     {"CharStorage", DType::I8},   {"ByteStorage", DType::U8},
    {"BoolStorage", DType::Bool},
};

// One item set on a dict (by DICT, SETITEM or SETITEMS), by node ids.
struct DictEntry {
    std::uint32_t dict, key, value;
};

class Scanner {
  public:
    Scanner(std::span<const std::uint8_t> p, const std::string& source) : p_(p), source_(source) {
        // Singletons: values without identity or payload need no node of their own.
        none_ = leaf(Kind::None);
        false_ = leaf(Kind::Bool, 0);
        true_ = leaf(Kind::Bool, 1);
        float_ = leaf(Kind::Float);
    }

    PickleScan run() {
        if (p_.size() > kMaxPickleBytes) {
            fail("the PyTorch file's pickle is larger than the limit", source_, "data.pkl",
                 "at most " + std::to_string(kMaxPickleBytes) + " bytes",
                 std::to_string(p_.size()));
        }
        // Every opcode adds at most one node, one stack entry, one memo entry and as many
        // edges as values it consumes, so all vectors below are bounded by the pickle's size.
        while (true) {
            op_ = pos_;
            const std::uint8_t code = u8("opcode");
            if (op_ == 0 && code != 0x80) {
                bad("PROTO 2 as the first opcode", "another opcode");
            }
            if (code == '.') {  // STOP
                break;
            }
            step(code);
        }
        if (stack_.size() != 1 || !marks_.empty()) {
            bad("STOP with exactly one value on the stack",
                std::to_string(stack_.size()) + " values, " + std::to_string(marks_.size()) +
                    " open marks");
        }
        out_.depth = depthOf(stack_.back());
        if (out_.depth > kMaxPickleDepth) {
            fail("the PyTorch file nests values too deeply", source_, "data.pkl",
                 "at most " + std::to_string(kMaxPickleDepth) + " levels",
                 std::to_string(out_.depth) + " levels");
        }
        nameTensors(stack_.back());
        return out_;
    }

  private:
    [[noreturn]] void bad(const std::string& expected, const std::string& found) const {
        fail("the PyTorch file's pickle is not a plain tensor or dict of tensors", source_,
             "data.pkl opcode at byte " + std::to_string(op_), expected, found);
    }

    // --- reading the byte stream -------------------------------------------------------------
    void need(std::uint64_t n, const char* what) const {
        if (n > p_.size() - pos_) {
            fail("the PyTorch file's pickle ends early", source_,
                 "data.pkl at byte " + std::to_string(pos_),
                 std::to_string(n) + " more bytes (" + what + ")",
                 std::to_string(p_.size() - pos_));
        }
    }
    std::uint64_t le(std::size_t n, const char* what) {
        need(n, what);
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i) {
            v |= std::uint64_t(p_[pos_ + i]) << (8 * i);
        }
        pos_ += n;
        return v;
    }
    std::uint8_t u8(const char* what) { return std::uint8_t(le(1, what)); }
    std::string bytes(std::uint64_t n, const char* what) {
        need(n, what);
        std::string s(reinterpret_cast<const char*>(p_.data() + pos_), std::size_t(n));
        pos_ += std::size_t(n);
        return s;
    }
    std::string line(const char* what) {
        const std::size_t begin = pos_;
        while (pos_ < p_.size() && p_[pos_] != '\n') {
            ++pos_;
        }
        if (pos_ == p_.size()) {
            need(1, what);
        }
        return std::string(reinterpret_cast<const char*>(p_.data() + begin), pos_++ - begin);
    }

    // --- the abstract machine -----------------------------------------------------------------
    std::uint32_t add(const Node& n) {
        nodes_.push_back(n);
        return std::uint32_t(nodes_.size() - 1);
    }
    std::uint32_t leaf(Kind k, std::int64_t value = 0) {
        Node n;
        n.kind = k;
        n.value = value;
        return add(n);
    }
    void push(std::uint32_t id) { stack_.push_back(id); }
    bool atMark() const {
        return stack_.empty() || (!marks_.empty() && stack_.size() <= marks_.back());
    }
    // Pops one value; never across the newest mark (LibTorch keeps marks as stack positions).
    std::uint32_t pop() {
        if (atMark()) {
            bad("a value on the stack", marks_.empty() ? "an empty stack" : "a mark");
        }
        const std::uint32_t id = stack_.back();
        stack_.pop_back();
        return id;
    }
    std::uint32_t top() const {
        if (atMark()) {
            bad("a value on the stack", marks_.empty() ? "an empty stack" : "a mark");
        }
        return stack_.back();
    }
    std::vector<std::uint32_t> popMark() {
        if (marks_.empty()) {
            bad("a mark on the stack", "none");
        }
        const std::size_t at = marks_.back();
        marks_.pop_back();
        std::vector<std::uint32_t> items(stack_.begin() + std::ptrdiff_t(at), stack_.end());
        stack_.resize(at);
        return items;
    }
    const Node& expectKind(std::uint32_t id, Kind k, const char* role) const {
        if (nodes_[id].kind != k) {
            bad(std::string(kindName(k)) + " as " + role, kindName(nodes_[id].kind));
        }
        return nodes_[id];
    }
    std::uint32_t tuple(const std::vector<std::uint32_t>& items) {
        Node n;
        n.kind = Kind::Tuple;
        n.value = std::int64_t(tupleItems_.size());
        n.count = std::uint32_t(items.size());
        tupleItems_.insert(tupleItems_.end(), items.begin(), items.end());
        return add(n);
    }
    std::uint32_t item(const Node& tupleNode, std::size_t i) const {
        return tupleItems_[std::size_t(tupleNode.value) + i];
    }
    std::uint32_t mutableContainer(Kind k, const std::vector<std::uint32_t>& items) {
        Node n;
        n.kind = k;
        const std::uint32_t id = add(n);
        for (std::uint32_t c : items) {
            edges_.push_back({id, c});
        }
        return id;
    }
    void dictItems(std::uint32_t dict, const std::vector<std::uint32_t>& items) {
        if (items.size() % 2 != 0) {
            bad("key/value pairs", std::to_string(items.size()) + " items");
        }
        for (std::size_t i = 0; i < items.size(); i += 2) {
            const Kind k = nodes_[items[i]].kind;
            if (k != Kind::Str && k != Kind::Int) {
                bad("a str or int dict key", kindName(k));
            }
        }
        for (std::uint32_t c : items) {
            edges_.push_back({dict, c});
        }
        for (std::size_t i = 0; i < items.size(); i += 2) {
            entries_.push_back({dict, items[i], items[i + 1]});
        }
    }
    void memoPut(std::uint64_t index) {
        // Python's pickler numbers memo entries 0, 1, 2 …; LibTorch grows its table to whatever
        // index is named, so a larger one would allocate without bound.
        if (index > memo_.size()) {
            bad("memo index at most " + std::to_string(memo_.size()), std::to_string(index));
        }
        const std::uint32_t id = top();
        if (index == memo_.size()) {
            memo_.push_back(id);
        } else {
            memo_[std::size_t(index)] = id;
        }
    }
    void memoGet(std::uint64_t index) {
        if (index >= memo_.size()) {
            bad("a memo index below " + std::to_string(memo_.size()), std::to_string(index));
        }
        push(memo_[std::size_t(index)]);
    }
    void global(const std::string& module, const std::string& name) {
        Node n;
        n.kind = Kind::Global;
        if (module == "collections" && name == "OrderedDict") {
            n.global = Global::OrderedDict;
        } else if (module == "torch._utils" && name == "_rebuild_tensor_v2") {
            n.global = Global::RebuildTensor;
        } else if (module == "torch._utils" && name == "_rebuild_parameter") {
            n.global = Global::RebuildParameter;
        } else {
            bool found = false;
            for (const StorageName& s : kStorages) {
                if (module == "torch" && name == s.name) {
                    n.global = Global::StorageType;
                    n.dtype = s.dtype;
                    found = true;
                }
            }
            if (!found) {
                fail("the PyTorch file refers to a Python object that is not allowed", source_,
                     "data.pkl opcode at byte " + std::to_string(op_),
                     "collections.OrderedDict, torch._utils._rebuild_tensor_v2, "
                     "torch._utils._rebuild_parameter or a torch storage type",
                     printable(module + "." + name));
            }
        }
        push(add(n));
    }
    // ('storage', torch.<T>Storage, key, location, numel) -> a storage of numel values.
    void persistentId() {
        const std::uint32_t pid = pop();
        const Node& t = expectKind(pid, Kind::Tuple, "persistent id");
        if (t.count != 5) {
            bad("a persistent id of 5 items", std::to_string(t.count) + " items");
        }
        const std::string& tag = texts_[expectKind(item(t, 0), Kind::Str, "id tag").value];
        const Node& type = expectKind(item(t, 1), Kind::Global, "storage type");
        const std::string& key = texts_[expectKind(item(t, 2), Kind::Str, "storage key").value];
        const std::string& loc = texts_[expectKind(item(t, 3), Kind::Str, "location").value];
        const std::int64_t numel = expectKind(item(t, 4), Kind::Int, "storage size").value;
        if (tag != "storage") {
            bad("persistent id 'storage'", printable(tag));
        }
        if (type.global != Global::StorageType) {
            bad("a torch storage type", "another global");
        }
        if (key.empty() || key.size() > 64 ||
            key.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789_") != std::string::npos) {
            bad("a storage key of letters, digits and _", printable(key));
        }
        const bool cuda =
            loc.rfind("cuda", 0) == 0 &&
            (loc.size() == 4 || (loc[4] == ':' && loc.size() > 5 && loc.size() < 9 &&
                                 loc.find_first_not_of("0123456789", 5) == std::string::npos));
        if (loc != "cpu" && loc != "mps" && !cuda) {
            bad("storage location cpu, mps or cuda[:N]", printable(loc));
        }
        if (numel < 0) {
            bad("a storage size >= 0", std::to_string(numel));
        }
        out_.storages.push_back({key, type.dtype, std::uint64_t(numel)});
        Node s;
        s.kind = Kind::Storage;
        s.dtype = type.dtype;
        s.value = std::int64_t(out_.storages.size() - 1);
        const std::uint32_t id = add(s);
        edges_.push_back({id, pid});
        push(id);
    }
    std::vector<std::int64_t> intTuple(std::uint32_t id, const char* role) const {
        const Node& t = expectKind(id, Kind::Tuple, role);
        if (t.count > kMaxPickleTensorDims) {
            bad("at most " + std::to_string(kMaxPickleTensorDims) + " dimensions",
                std::to_string(t.count));
        }
        std::vector<std::int64_t> v;
        for (std::size_t i = 0; i < t.count; ++i) {
            v.push_back(expectKind(item(t, i), Kind::Int, role).value);
        }
        return v;
    }
    std::uint32_t tensorNode(std::uint32_t argsId, std::size_t info) {
        Node t;
        t.kind = Kind::Tensor;
        t.value = std::int64_t(info);
        const std::uint32_t id = add(t);
        edges_.push_back({id, argsId});
        ++out_.tensors;
        return id;
    }
    // _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks): the tensor must
    // lie inside its storage, with non-negative sizes, strides and offset, and hold no more
    // elements than its storage (no hidden expansion to a huge tensor).
    void rebuildTensor(std::uint32_t argsId) {
        const Node& args = nodes_[argsId];
        if (args.count != 6) {
            bad("6 arguments to _rebuild_tensor_v2", std::to_string(args.count));
        }
        const Node& storage = expectKind(item(args, 0), Kind::Storage, "tensor storage");
        const std::int64_t offset = expectKind(item(args, 1), Kind::Int, "offset").value;
        const auto sizes = intTuple(item(args, 2), "tensor size");
        const auto strides = intTuple(item(args, 3), "tensor stride");
        expectKind(item(args, 4), Kind::Bool, "requires_grad");
        expectKind(item(args, 5), Kind::Dict, "backward hooks");
        if (sizes.size() != strides.size()) {
            bad("as many strides as sizes",
                std::to_string(sizes.size()) + " sizes, " + std::to_string(strides.size()));
        }
        const PickleStorageRef& ref = out_.storages[std::size_t(storage.value)];
        const std::uint64_t cap = std::uint64_t(1) << 62;
        if (offset < 0 || std::uint64_t(offset) > cap) {
            bad("a storage offset from 0 to 2^62", std::to_string(offset));
        }
        std::uint64_t numel = 1, extent = 0;
        for (std::size_t d = 0; d < sizes.size(); ++d) {
            if (sizes[d] < 0 || strides[d] < 0) {
                bad("non-negative sizes and strides",
                    "size " + std::to_string(sizes[d]) + ", stride " + std::to_string(strides[d]));
            }
            const auto n = std::uint64_t(sizes[d]), st = std::uint64_t(strides[d]);
            if (n > cap || st > cap || (n != 0 && numel > cap / n) ||
                (n > 1 && st > (cap - extent) / (n - 1))) {
                bad("a tensor size below 2^62", "a larger one");
            }
            numel *= n;
            extent += n > 0 ? (n - 1) * st : 0;
        }
        if (numel > 0 && (std::uint64_t(offset) + extent + 1 > ref.numel || numel > ref.numel)) {
            fail("a tensor in the PyTorch file lies outside its storage", source_,
                 "data.pkl storage '" + ref.key + "'",
                 "at most " + std::to_string(ref.numel) + " elements",
                 "offset " + std::to_string(offset) + " + extent " + std::to_string(extent + 1) +
                     " for " + std::to_string(numel) + " elements");
        }
        PickleTensor info;
        info.storage = std::size_t(storage.value);
        info.offset = offset;
        info.sizes = sizes;
        info.strides = strides;
        tensors_.push_back(std::move(info));
        push(tensorNode(argsId, tensors_.size() - 1));
    }
    void reduce() {
        const std::uint32_t argsId = pop();
        const std::uint32_t fnId = pop();
        const Global fn = expectKind(fnId, Kind::Global, "callable").global;
        const Node& args = expectKind(argsId, Kind::Tuple, "arguments");
        switch (fn) {
            case Global::OrderedDict:
                if (args.count != 0) {
                    bad("OrderedDict()", std::to_string(args.count) + " arguments");
                }
                push(mutableContainer(Kind::Dict, {}));
                return;
            case Global::RebuildTensor:
                rebuildTensor(argsId);
                return;
            case Global::RebuildParameter:
                if (args.count != 3) {
                    bad("3 arguments to _rebuild_parameter", std::to_string(args.count));
                }
                expectKind(item(args, 1), Kind::Bool, "requires_grad");
                expectKind(item(args, 2), Kind::Dict, "backward hooks");
                --out_.tensors;  // the same tensor, wrapped
                push(tensorNode(
                    argsId,
                    std::size_t(expectKind(item(args, 0), Kind::Tensor, "parameter data").value)));
                return;
            case Global::StorageType:
                break;
        }
        bad("a callable global", "a storage type");
    }

    void step(std::uint8_t code) {
        switch (code) {
            case 0x80: {  // PROTO (LibTorch reads protocol 2 only)
                const std::uint8_t v = u8("protocol");
                if (op_ != 0 || v != 2) {
                    bad("PROTO 2 as the first opcode", "PROTO " + std::to_string(v));
                }
                return;
            }
            case '(':  // MARK
                marks_.push_back(stack_.size());
                return;
            case 'N':
                push(none_);
                return;
            case 0x88:  // NEWTRUE
                push(true_);
                return;
            case 0x89:  // NEWFALSE
                push(false_);
                return;
            case 'J':  // BININT
                push(leaf(Kind::Int, std::int32_t(std::uint32_t(le(4, "int")))));
                return;
            case 'K':  // BININT1
                push(leaf(Kind::Int, std::int64_t(le(1, "int"))));
                return;
            case 'M':  // BININT2
                push(leaf(Kind::Int, std::int64_t(le(2, "int"))));
                return;
            case 0x8a: {  // LONG1: little-endian two's complement of n bytes
                const std::uint8_t n = u8("long length");
                if (n > 8) {
                    bad("an integer of at most 8 bytes", std::to_string(n) + " bytes");
                }
                std::uint64_t v = n ? le(n, "long") : 0;
                if (n > 0 && n < 8 && ((v >> (8 * n - 1)) & 1)) {
                    v |= ~std::uint64_t(0) << (8 * n);  // sign-extend
                }
                push(leaf(Kind::Int, std::int64_t(v)));
                return;
            }
            case 'G':  // BINFLOAT
                le(8, "float");
                push(float_);
                return;
            case 'X': {  // BINUNICODE
                const std::uint64_t n = le(4, "length");
                texts_.push_back(bytes(n, "string"));
                push(leaf(Kind::Str, std::int64_t(texts_.size() - 1)));
                return;
            }
            case ')':  // EMPTY_TUPLE
                push(tuple({}));
                return;
            case 't':  // TUPLE
                push(tuple(popMark()));
                return;
            case 0x85:    // TUPLE1
            case 0x86:    // TUPLE2
            case 0x87: {  // TUPLE3
                std::vector<std::uint32_t> items(std::size_t(code - 0x84));
                for (std::size_t i = items.size(); i-- > 0;) {
                    items[i] = pop();
                }
                push(tuple(items));
                return;
            }
            case ']':  // EMPTY_LIST
                push(mutableContainer(Kind::List, {}));
                return;
            case 'l':  // LIST
                push(mutableContainer(Kind::List, popMark()));
                return;
            case 'a': {  // APPEND
                const std::uint32_t v = pop();
                expectKind(top(), Kind::List, "APPEND target");
                edges_.push_back({top(), v});
                return;
            }
            case 'e': {  // APPENDS
                const auto items = popMark();
                expectKind(top(), Kind::List, "APPENDS target");
                for (std::uint32_t c : items) {
                    edges_.push_back({top(), c});
                }
                return;
            }
            case '}':  // EMPTY_DICT
                push(mutableContainer(Kind::Dict, {}));
                return;
            case 'd': {  // DICT
                const auto items = popMark();
                const std::uint32_t d = mutableContainer(Kind::Dict, {});
                dictItems(d, items);
                push(d);
                return;
            }
            case 's': {  // SETITEM
                const std::uint32_t v = pop();
                const std::uint32_t k = pop();
                expectKind(top(), Kind::Dict, "SETITEM target");
                dictItems(top(), {k, v});
                return;
            }
            case 'u': {  // SETITEMS
                const auto items = popMark();
                expectKind(top(), Kind::Dict, "SETITEMS target");
                dictItems(top(), items);
                return;
            }
            case 'c': {  // GLOBAL module\nname\n
                const std::string module = line("module name");
                const std::string name = line("global name");
                global(module, name);
                return;
            }
            case 'R':  // REDUCE
                reduce();
                return;
            case 'b': {  // BUILD: a state dict's attributes (its _metadata)
                const std::uint32_t state = pop();
                expectKind(top(), Kind::Dict, "BUILD target");
                edges_.push_back({top(), state});
                return;
            }
            case 'Q':  // BINPERSID
                persistentId();
                return;
            case 'q':  // BINPUT
                memoPut(le(1, "memo index"));
                return;
            case 'r':  // LONG_BINPUT
                memoPut(le(4, "memo index"));
                return;
            case 'h':  // BINGET
                memoGet(le(1, "memo index"));
                return;
            case 'j':  // LONG_BINGET
                memoGet(le(4, "memo index"));
                return;
            default: {
                const char* hex = "0123456789abcdef";
                bad("an opcode torch.save writes for tensors and dicts",
                    std::string("opcode 0x") + hex[code >> 4] + hex[code & 15]);
            }
        }
    }

    // The tensors reachable from `root` through dict values, named by their keys joined with ".":
    // what torch.load's state dict holds, flattened. Runs after depthOf, so the value is a tree
    // at most kMaxPickleDepth deep (recursion is bounded); a dict reached through several keys is
    // named under each, within kMaxPickleNamedValues pairs and kMaxPickleNameBytes of names.
    void nameTensors(std::uint32_t root) {
        std::vector<DictEntry> sorted = entries_;
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const DictEntry& a, const DictEntry& b) { return a.dict < b.dict; });
        Naming naming{sorted, 0, 0};
        nameValue(root, "", naming);
    }
    struct Naming {
        const std::vector<DictEntry>& sorted;  ///< entries_ by dict
        std::size_t visited, nameBytes;
    };
    void nameValue(std::uint32_t id, const std::string& prefix, Naming& naming) {
        const std::vector<DictEntry>& sorted = naming.sorted;
        const Node& n = nodes_[id];
        if (n.kind == Kind::Tensor) {
            PickleTensor t = tensors_[std::size_t(n.value)];
            t.name = prefix.empty() ? "tensor" : prefix;
            out_.named.push_back(std::move(t));
            return;
        }
        if (n.kind != Kind::Dict) {
            return;
        }
        auto it = std::lower_bound(sorted.begin(), sorted.end(), id,
                                   [](const DictEntry& e, std::uint32_t d) { return e.dict < d; });
        for (; it != sorted.end() && it->dict == id; ++it) {
            if (++naming.visited > kMaxPickleNamedValues) {
                fail("the PyTorch file names too many values", source_, "data.pkl",
                     "at most " + std::to_string(kMaxPickleNamedValues) + " dict entries",
                     "more (a dict reached through many keys)");
            }
            const Kind kind = nodes_[it->value].kind;
            if (kind != Kind::Tensor && kind != Kind::Dict) {
                continue;  // numbers, lists, _metadata's contents: nothing to name
            }
            const Node& key = nodes_[it->key];
            const std::string k =
                key.kind == Kind::Str ? texts_[std::size_t(key.value)] : std::to_string(key.value);
            const std::string name = prefix.empty() ? k : prefix + "." + k;
            naming.nameBytes += name.size();
            if (naming.nameBytes > kMaxPickleNameBytes) {
                fail("the PyTorch file's tensor names are too long", source_, "data.pkl",
                     "at most " + std::to_string(kMaxPickleNameBytes) + " bytes of names",
                     "more");
            }
            nameValue(it->value, name, naming);
        }
    }

    // Longest chain of containment from `root`, by an explicit stack (no recursion) over the
    // graph in compressed rows; a value that contains itself is refused.
    std::size_t depthOf(std::uint32_t root) const {
        const std::size_t n = nodes_.size();
        std::vector<std::uint32_t> first(n + 1, 0);
        for (std::size_t i = 0; i < n; ++i) {
            if (nodes_[i].kind == Kind::Tuple) {
                first[i + 1] += nodes_[i].count;
            }
        }
        for (const auto& e : edges_) {
            ++first[e.first + 1];
        }
        for (std::size_t i = 0; i < n; ++i) {
            first[i + 1] += first[i];
        }
        std::vector<std::uint32_t> adj(first[n]);
        std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
        for (std::size_t i = 0; i < n; ++i) {
            if (nodes_[i].kind == Kind::Tuple) {
                for (std::size_t k = 0; k < nodes_[i].count; ++k) {
                    adj[fill[i]++] = item(nodes_[i], k);
                }
            }
        }
        for (const auto& e : edges_) {
            adj[fill[e.first]++] = e.second;
        }

        enum : std::uint8_t { White, Grey, Black };
        std::vector<std::uint8_t> colour(n, White);
        std::vector<std::uint32_t> depth(n, 0);
        std::vector<std::pair<std::uint32_t, std::uint32_t>> work{{root, first[root]}};
        colour[root] = Grey;
        while (!work.empty()) {
            auto& [id, next] = work.back();
            if (next < first[id + 1]) {
                const std::uint32_t c = adj[next++];
                if (colour[c] == Grey) {
                    fail("the PyTorch file holds a value that contains itself", source_, "data.pkl",
                         "a tree of dicts and tensors", "a cycle");
                }
                if (colour[c] == White) {
                    colour[c] = Grey;
                    work.push_back({c, first[c]});
                }
                continue;
            }
            std::uint32_t d = 0;
            for (std::uint32_t k = first[id]; k < first[id + 1]; ++k) {
                d = std::max(d, depth[adj[k]]);
            }
            depth[id] = d + 1;
            colour[id] = Black;
            work.pop_back();
        }
        return depth[root];
    }

    std::span<const std::uint8_t> p_;
    const std::string& source_;
    std::size_t pos_ = 0, op_ = 0;
    std::vector<Node> nodes_;
    std::vector<std::string> texts_;
    std::vector<std::uint32_t> tupleItems_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges_;  ///< container -> content
    std::vector<DictEntry> entries_;     ///< dict items in the order they were set
    std::vector<PickleTensor> tensors_;  ///< what each Tensor node's value indexes
    std::vector<std::uint32_t> stack_, memo_;
    std::vector<std::size_t> marks_;
    std::uint32_t none_ = 0, false_ = 0, true_ = 0, float_ = 0;
    PickleScan out_;
};

}  // namespace

PickleScan scanTorchPickle(std::span<const std::uint8_t> pickle, const std::string& source) {
    return Scanner(pickle, source).run();
}

}  // namespace once
