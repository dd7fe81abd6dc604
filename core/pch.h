// Precompiled header for targets that use LibTorch: parsing ATen's headers dominates the compile
// time of every such file, so they are parsed once per target. Not included by any source.
#pragma once
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>
