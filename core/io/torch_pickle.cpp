#include "io/torch_pickle.h"

#include <ATen/ATen.h>
#include <caffe2/serialize/in_memory_adapter.h>
#include <caffe2/serialize/inline_container.h>

#include <limits>

#include "io/mapped_file.h"
#include "io/pickle_scan.h"
#include "io/tensor_io.h"
#include "util/error.h"

namespace once {
namespace {

// One printable line of a LibTorch exception: no backtrace, no control characters, bounded.
std::string oneLine(const std::exception& e) {
    const auto* c10e = dynamic_cast<const c10::Error*>(&e);
    std::string what = c10e ? c10e->what_without_backtrace() : e.what();
    what = what.substr(0, what.find('\n'));
    std::string out;
    for (char c : what.substr(0, 200)) {
        out += (c >= 32 && c < 127) ? c : '?';
    }
    return out + (what.size() > 200 ? "..." : "");
}

[[noreturn]] void unreadable(const std::exception& e, const std::string& source) {
    fail("not a readable PyTorch file: " + oneLine(e), source);
}

// The built tensor must lie inside its storage: checked again on the tensor itself, whatever the
// scan promised.
void checkInsideStorage(const at::Tensor& t, const std::string& name, const std::string& source) {
    if (t.layout() != at::kStrided || !t.device().is_cpu() || !t.has_storage()) {
        fail("a tensor of the PyTorch file is not a dense CPU tensor", source, name,
             "a dense CPU tensor", "another kind");
    }
    const std::uint64_t item = std::uint64_t(t.element_size());
    const std::uint64_t storageElements = std::uint64_t(t.storage().nbytes()) / item;
    const std::uint64_t cap = std::uint64_t(1) << 62;
    if (t.storage_offset() < 0 || std::uint64_t(t.storage_offset()) > cap) {
        fail("a tensor of the PyTorch file has a bad storage offset", source, name, ">= 0",
             std::to_string(t.storage_offset()));
    }
    std::uint64_t numel = 1, extent = 0;
    for (std::int64_t d = 0; d < t.dim(); ++d) {
        const std::int64_t n = t.size(d), s = t.stride(d);
        if (n < 0 || s < 0) {
            fail("a tensor of the PyTorch file has a negative size or stride", source, name,
                 "sizes and strides >= 0",
                 "size " + std::to_string(n) + ", stride " + std::to_string(s));
        }
        const auto un = std::uint64_t(n), us = std::uint64_t(s);
        if (un > cap || us > cap || (un != 0 && numel > cap / un) ||
            (un > 1 && us > (cap - extent) / (un - 1))) {
            fail("a tensor of the PyTorch file is too large", source, name, "below 2^62 elements",
                 "more");
        }
        numel *= un;
        extent += un > 0 ? (un - 1) * us : 0;
    }
    if (numel > 0 && (std::uint64_t(t.storage_offset()) + extent + 1 > storageElements ||
                      numel > storageElements || t.storage().data() == nullptr)) {
        fail("a tensor of the PyTorch file lies outside its storage", source, name,
             "at most " + std::to_string(storageElements) + " elements",
             "offset " + std::to_string(t.storage_offset()) + " + extent " +
                 std::to_string(extent + 1) + " for " + std::to_string(numel) + " elements");
    }
}

}  // namespace

std::map<std::string, at::Tensor> readTorchStateDict(std::span<const std::uint8_t> bytes,
                                                     const std::string& source) {
    if (bytes.size() > kMaxTorchFileBytes) {
        fail("the PyTorch file is larger than the limit", source, "file size",
             "at most " + std::to_string(kMaxTorchFileBytes) + " bytes",
             std::to_string(bytes.size()));
    }
    if (bytes.size() < 4 || bytes[0] != 'P' || bytes[1] != 'K') {
        fail("not a PyTorch file (torch.save writes a zip archive)", source, "magic", "PK",
             "other bytes");
    }
    using caffe2::serialize::PyTorchStreamReader;
    std::unique_ptr<PyTorchStreamReader> reader;
    at::DataPtr pickle;
    std::size_t pickleSize = 0;
    try {
        reader = std::make_unique<PyTorchStreamReader>(
            std::make_shared<caffe2::serialize::MemoryReadAdapter>(bytes.data(),
                                                                   off_t(bytes.size())));
        std::uint64_t total = 0;
        for (const std::string& name : reader->getAllRecords()) {
            const std::uint64_t n = reader->getRecordSize(name);
            if (n > kMaxTorchFileBytes - total) {
                fail("the PyTorch file's records are larger than the limit", source, name,
                     "at most " + std::to_string(kMaxTorchFileBytes) + " bytes in all", "more");
            }
            total += n;
        }
        if (!reader->hasRecord("data.pkl")) {
            fail("the PyTorch file has no data.pkl", source, "data.pkl", "present", "missing");
        }
        const std::uint64_t n = reader->getRecordSize("data.pkl");
        if (n > kMaxPickleBytes) {
            fail("the PyTorch file's pickle is larger than the limit", source, "data.pkl",
                 "at most " + std::to_string(kMaxPickleBytes) + " bytes", std::to_string(n));
        }
        std::tie(pickle, pickleSize) = reader->getRecord("data.pkl");
    } catch (const OnceError&) {
        throw;
    } catch (const std::exception& e) {
        unreadable(e, source);
    }

    const PickleScan scan =
        scanTorchPickle({static_cast<const std::uint8_t*>(pickle.get()), pickleSize}, source);
    // Each storage is read once (the storage context shares it between its tensors), so all
    // references to one key must agree on its type and size, which its record must hold.
    std::map<std::string, const PickleStorageRef*> byKey;
    for (const PickleStorageRef& s : scan.storages) {
        auto [it, fresh] = byKey.emplace(s.key, &s);
        if (!fresh && (it->second->dtype != s.dtype || it->second->numel != s.numel)) {
            fail("a storage of the PyTorch file is described twice differently", source,
                 "data/" + s.key, "one type and size", "two");
        }
        const std::uint64_t item = dtypeSize(s.dtype);
        if (s.numel > std::numeric_limits<std::uint64_t>::max() / item) {
            fail("a storage of the PyTorch file is too large", source, "data/" + s.key,
                 "below 2^64 bytes", std::to_string(s.numel) + " elements");
        }
        if (s.numel == 0) {
            continue;  // LibTorch does not read the record of an empty storage
        }
        const std::string record = "data/" + s.key;
        std::uint64_t have = 0;
        try {
            if (!reader->hasRecord(record)) {
                fail("a storage record is missing from the PyTorch file", source, record, "present",
                     "missing");
            }
            have = reader->getRecordSize(record);
        } catch (const OnceError&) {
            throw;
        } catch (const std::exception& e) {
            unreadable(e, source);
        }
        if (have < s.numel * item) {
            fail("a storage of the PyTorch file is shorter than its tensors claim", source, record,
                 std::to_string(s.numel * item) + " bytes", std::to_string(have));
        }
    }

    // The tensors are built from the scan, not by LibTorch's unpickler: nothing in the pickle
    // runs, and collections.OrderedDict (every nn.Module.state_dict()) is a dict like any other.
    std::map<std::string, at::Storage> storages;
    for (const PickleStorageRef& s : scan.storages) {
        if (storages.count(s.key)) {
            continue;  // one storage, shared by its tensors as torch.load shares it
        }
        at::DataPtr data;
        if (s.numel > 0) {
            try {
                data = std::get<0>(reader->getRecord("data/" + s.key));
            } catch (const std::exception& e) {
                unreadable(e, source);
            }
        }
        // numel × item size was checked against the record's bytes above.
        const auto bytes = std::int64_t(s.numel * dtypeSize(s.dtype));
        storages.emplace(s.key, at::Storage(at::Storage::use_byte_size_t(), bytes,
                                            std::move(data), /*allocator=*/nullptr,
                                            /*resizable=*/false));
    }
    std::map<std::string, at::Tensor> out;
    try {
        for (const PickleTensor& t : scan.named) {
            const PickleStorageRef& ref = scan.storages[t.storage];
            out[t.name] = at::empty({0}, at::TensorOptions().dtype(toScalarType(ref.dtype)))
                              .set_(storages.at(ref.key), t.offset, t.sizes, t.strides);
        }
    } catch (const c10::Error& e) {
        unreadable(e, source);
    }
    if (out.empty()) {
        fail("PyTorch file holds no tensors", source, {}, "a tensor or a dict of tensors",
             "no tensor under a dict key");
    }
    for (const auto& [name, t] : out) {
        checkInsideStorage(t, name, source);
    }
    return out;
}

std::map<std::string, at::Tensor> readTorchStateDict(const std::string& path) {
    auto file = MappedFile::open(path);
    return readTorchStateDict({file->data(), file->size()}, path);
}

}  // namespace once
