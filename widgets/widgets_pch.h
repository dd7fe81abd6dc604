// Precompiled header of once_widgets (see CMakeLists.txt). Not included by any source.
#pragma once
#include <ATen/ATen.h>

#include <QtCore>
#include <QtGui>
#include <QtWidgets>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>
