#pragma once
// Models as `huggingface_hub` stores them (`hf download`, `snapshot_download`, transformers'
// from_pretrained): HF_HUB_CACHE/models--ORG--NAME/ holds refs/main (the commit hash of the
// branch) and snapshots/COMMIT/, whose files are relative symlinks to ../../blobs/SHA. A model
// is found there offline, by the same rules transformers follows with HF_HUB_OFFLINE=1.
#include <string>

namespace once {

/// The hub cache folder: $HF_HUB_CACHE, else $HUGGINGFACE_HUB_CACHE, else $HF_HOME/hub, else
/// $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub (a leading ~ expanded), as
/// huggingface_hub's constants have it.
std::string hubCacheFolder();

/// True when `text` is a repository id as the Hub accepts one ("ORG/NAME" or "NAME": letters,
/// digits, "-", "_" and ".", no "--" or "..", neither starting nor ending with "-" or ".", at
/// most 96 characters).
bool isHubRepoId(const std::string& text);

/// The model folder `model` names, for --model and the studio's model folder:
///   - an existing folder with config.json: itself;
///   - a repository folder of the cache (models--ORG--NAME, holding refs/ and snapshots/): its
///     snapshot of refs/main;
///   - a repository id that is not an existing path: the snapshot of refs/main of
///     models--ORG--NAME in hubCacheFolder().
/// Anything else is returned unchanged (the reader then names what is missing). Throws
/// OnceError naming the file and field when the cache holds the repository without a usable
/// refs/main (missing, not a regular file, not a 40-digit commit hash) or without its snapshot,
/// or when a repository id is not in the cache.
std::string resolveModelFolder(const std::string& model);

}  // namespace once
