#include "cli/arg_parser.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

#include "util/error.h"
#include "util/json_file.h"  // printableExcerpt

namespace once::cli {

ArgParser::ArgParser(std::string command, std::string summary)
    : command_(std::move(command)), summary_(std::move(summary)) {}

ArgParser& ArgParser::option(const std::string& name, const std::string& valueName,
                             const std::string& help, std::optional<std::string> defaultValue,
                             const std::string& shortAlias) {
    specs_.push_back(
        {name, valueName, help, shortAlias, std::move(defaultValue), false, {}, OptionDomain{}});
    current_ = specs_.size() - 1;
    return *this;
}

ArgParser& ArgParser::flag(const std::string& name, const std::string& help) {
    specs_.push_back({name, {}, help, {}, std::nullopt, true, {}, OptionDomain{}});
    current_ = specs_.size() - 1;
    return *this;
}

ArgParser::Spec& ArgParser::last(const char* what) {
    if (current_ >= specs_.size() || specs_[current_].isFlag) {
        throw std::logic_error(std::string(what) + "() needs an option declared before it");
    }
    return specs_[current_];
}

ArgParser& ArgParser::select(const std::string& name) {
    for (std::size_t i = 0; i < specs_.size(); ++i) {
        if (specs_[i].name == name) {
            current_ = i;
            return *this;
        }
    }
    throw std::logic_error("select(): no option --" + name);
}

ArgParser& ArgParser::alias(const std::string& oldName) {
    last("alias").aliases.push_back(oldName);
    return *this;
}

ArgParser& ArgParser::integerIn(std::int64_t min, std::int64_t max) {
    OptionDomain& d = last("integerIn").domain;
    d.kind = OptionDomain::Kind::integer;
    d.intMin = min;
    d.intMax = max;
    return *this;
}

ArgParser& ArgParser::integerListIn(std::int64_t min, std::int64_t max) {
    integerIn(min, max);
    last("integerListIn").domain.kind = OptionDomain::Kind::integerList;
    return *this;
}

ArgParser& ArgParser::numberIn(double min, double max) {
    OptionDomain& d = last("numberIn").domain;
    d.kind = OptionDomain::Kind::number;
    d.min = min;
    d.max = max;
    d.minOpen = false;
    return *this;
}

ArgParser& ArgParser::numberAbove(double min, double max) {
    numberIn(min, max);
    last("numberAbove").domain.minOpen = true;
    return *this;
}

ArgParser& ArgParser::anyInteger() {
    return integerIn(std::numeric_limits<std::int64_t>::min(),
                     std::numeric_limits<std::int64_t>::max());
}

ArgParser& ArgParser::finiteNumber() {
    return numberIn(std::numeric_limits<double>::lowest(), std::numeric_limits<double>::max());
}

namespace {

std::string numberText(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

std::optional<std::int64_t> parseInteger(const std::string& v) {
    std::int64_t x = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || p != v.data() + v.size()) {
        return std::nullopt;
    }
    return x;
}

// A finite number written whole ("1e-3", "0.5"); NaN, Inf and trailing text are not.
std::optional<double> parseFinite(const std::string& v) {
    try {
        std::size_t used = 0;
        const double x = std::stod(v, &used);
        if (used == v.size() && std::isfinite(x)) {
            return x;
        }
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

}  // namespace

std::string OptionDomain::text() const {
    switch (kind) {
    case Kind::integer:
    case Kind::integerList: {
        std::string range;
        if (intMin == std::numeric_limits<std::int64_t>::min() &&
            intMax == std::numeric_limits<std::int64_t>::max()) {
            range = "";
        } else if (intMax == std::numeric_limits<std::int64_t>::max()) {
            range = " in [" + std::to_string(intMin) + ", 2^63 - 1]";
        } else {
            range = " in [" + std::to_string(intMin) + ", " + std::to_string(intMax) + "]";
        }
        return (kind == Kind::integer ? "an integer" : "comma-separated integers") + range;
    }
    case Kind::number:
        if (min == std::numeric_limits<double>::lowest() &&
            max == std::numeric_limits<double>::max()) {
            return "a finite number";
        }
        return "a finite number in " + std::string(minOpen ? "(" : "[") + numberText(min) + ", " +
               numberText(max) + "]";
    case Kind::text:
        break;
    }
    return "text";
}

void ArgParser::checkValue(const std::string& option, const OptionDomain& d,
                           const std::string& value) {
    bool ok = true;
    switch (d.kind) {
    case OptionDomain::Kind::text:
        return;
    case OptionDomain::Kind::integer: {
        const auto x = parseInteger(value);
        ok = x && *x >= d.intMin && *x <= d.intMax;
        break;
    }
    case OptionDomain::Kind::integerList: {
        std::stringstream ss(value);
        int count = 0;
        for (std::string item; ok && std::getline(ss, item, ',');) {
            const auto x = parseInteger(item);
            ok = x && *x >= d.intMin && *x <= d.intMax;
            ++count;
        }
        ok = ok && count > 0 && value.back() != ',';
        break;
    }
    case OptionDomain::Kind::number: {
        const auto x = parseFinite(value);
        ok = x && *x <= d.max && (d.minOpen ? *x > d.min : *x >= d.min);
        break;
    }
    }
    if (!ok) {
        throw UsageError("option --" + option + " expects " + d.text() + ", found '" +
                         printableExcerpt(value, 40) + "'");
    }
}

ArgParser& ArgParser::positional(const std::string& name, const std::string& help, bool required,
                                 bool many) {
    positionals_.push_back({name, help, required, many});
    return *this;
}

const ArgParser::Spec* ArgParser::findSpec(const std::string& token) const {
    for (const Spec& s : specs_) {
        if (token == "--" + s.name || (!s.shortAlias.empty() && token == s.shortAlias)) {
            return &s;
        }
        for (const std::string& a : s.aliases) {
            if (token == "--" + a) {
                return &s;
            }
        }
    }
    return nullptr;
}

void ArgParser::parse(const std::vector<std::string>& args) {
    std::vector<std::string> pos;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string tok = args[i];
        if (tok == "-h" || tok == "--help") {
            help_ = true;
            return;
        }
        if (tok.size() > 1 && tok[0] == '-' && !(tok.size() > 1 && std::isdigit(tok[1]))) {
            std::string value;
            bool inlineValue = false;
            if (auto eq = tok.find('='); tok.rfind("--", 0) == 0 && eq != std::string::npos) {
                value = tok.substr(eq + 1);
                tok = tok.substr(0, eq);
                inlineValue = true;
            }
            const Spec* s = findSpec(tok);
            if (!s) {
                throw UsageError("unknown option '" + tok + "' for 'once " + command_ + "'");
            }
            if (s->isFlag) {
                if (inlineValue) {
                    throw UsageError("option '" + tok + "' takes no value");
                }
                values_[s->name].push_back("1");
                continue;
            }
            if (!inlineValue) {
                if (i + 1 >= args.size()) {
                    throw UsageError("option '" + tok + "' needs a value (" + s->valueName + ")");
                }
                value = args[++i];
            }
            values_[s->name].push_back(value);
            continue;
        }
        pos.push_back(tok);
    }
    std::size_t k = 0;
    for (const Positional& p : positionals_) {
        if (p.many) {
            while (k < pos.size()) {
                values_[p.name].push_back(pos[k++]);
            }
        } else if (k < pos.size()) {
            values_[p.name].push_back(pos[k++]);
        }
        if (p.required && !values_.count(p.name)) {
            throw UsageError("missing argument " + p.name + " for 'once " + command_ + "'");
        }
    }
    if (k < pos.size()) {
        throw UsageError("unexpected argument '" + pos[k] + "' for 'once " + command_ + "'");
    }
    for (const Spec& s : specs_) {
        if (auto it = values_.find(s.name); it != values_.end()) {
            for (const std::string& v : it->second) {
                checkValue(s.name, s.domain, v);
            }
        }
    }
}

bool ArgParser::has(const std::string& name) const {
    if (values_.count(name)) {
        return true;
    }
    for (const Spec& s : specs_) {
        if (s.name == name && s.defaultValue) {
            return true;
        }
    }
    return false;
}

bool ArgParser::flagSet(const std::string& name) const {
    return values_.count(name) > 0;
}

std::string ArgParser::get(const std::string& name) const {
    auto it = values_.find(name);
    if (it != values_.end()) {
        return it->second.back();
    }
    for (const Spec& s : specs_) {
        if (s.name == name && s.defaultValue) {
            return *s.defaultValue;
        }
    }
    throw UsageError("missing required option --" + name + " for 'once " + command_ + "'");
}

std::string ArgParser::getOr(const std::string& name, const std::string& fallback) const {
    return has(name) ? get(name) : fallback;
}

std::int64_t ArgParser::getInt(const std::string& name) const {
    const std::string v = get(name);
    const auto x = parseInteger(v);
    if (!x) {
        throw UsageError("option --" + name + " expects an integer, found '" +
                         printableExcerpt(v, 40) + "'");
    }
    return *x;
}

int ArgParser::getInt32(const std::string& name, const std::string& stage) const {
    const std::int64_t v = getInt(name);
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
        fail("invalid " + stage + " option", {}, name, "a 32-bit integer", std::to_string(v));
    }
    return int(v);
}

double ArgParser::getDouble(const std::string& name) const {
    const std::string v = get(name);
    if (const auto x = parseFinite(v)) {
        return *x;
    }
    throw UsageError("option --" + name + " expects a finite number, found '" +
                     printableExcerpt(v, 40) + "'");
}

std::vector<std::int64_t> ArgParser::getIntList(const std::string& name) const {
    const std::string v = get(name);
    std::vector<std::int64_t> out;
    std::stringstream ss(v);
    for (std::string item; std::getline(ss, item, ',');) {
        const auto x = parseInteger(item);
        if (!x) {
            throw UsageError("option --" + name + " takes comma-separated integers, found '" +
                             printableExcerpt(v, 40) + "'");
        }
        out.push_back(*x);
    }
    return out;
}

std::vector<std::string> ArgParser::getAll(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

void ArgParser::requireOneOf(const std::vector<std::string>& names) const {
    int given = 0;
    std::string list;
    for (const auto& n : names) {
        given += values_.count(n) ? 1 : 0;
        list += (list.empty() ? "" : " | ") + n;
    }
    if (given != 1) {
        throw UsageError("'once " + command_ + "' needs exactly one of: " + list);
    }
}

std::string ArgParser::help() const {
    std::ostringstream out;
    out << "usage: once " << command_;
    for (const Positional& p : positionals_) {
        out << " " << (p.required ? "" : "[") << p.name << (p.many ? "..." : "")
            << (p.required ? "" : "]");
    }
    out << " [options]\n\n" << summary_ << "\n";
    if (!positionals_.empty()) {
        out << "\narguments:\n";
        for (const Positional& p : positionals_) {
            out << "  " << p.name << "\n      " << p.help << "\n";
        }
    }
    out << "\noptions:\n";
    for (const Spec& s : specs_) {
        out << "  " << (s.shortAlias.empty() ? "" : s.shortAlias + ", ") << "--" << s.name;
        if (!s.isFlag) {
            out << " " << s.valueName;
        }
        out << "\n      " << s.help;
        if (s.domain.kind != OptionDomain::Kind::text) {
            out << "; " << s.domain.text();
        }
        for (const std::string& a : s.aliases) {
            out << " (also --" << a << ")";
        }
        if (s.defaultValue) {
            out << " (default: " << *s.defaultValue << ")";
        }
        out << "\n";
    }
    out << "  -h, --help\n      this help\n";
    return out.str();
}

}  // namespace once::cli
