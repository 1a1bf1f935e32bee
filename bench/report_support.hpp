/// @file report_support.hpp
/// @brief What the benchmark's target checks share (report.cpp, format_choice_report.cpp):
/// number formatting, records grouped by matrix and precision, and the PASS/MISS tally.
#pragma once

#include <cstdio>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "registry/variants.hpp"
#include "report.hpp"

namespace bench {

/// @brief printf-style formatting of one number. @param f [in] format  @param v [in] value
inline std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

/// @brief "matrix/precision" of a record. @param r [in] record
inline std::string group_key(const Record& r) { return r.matrix + "/" + r.precision; }

/// @brief "backend:kernel" of a record. @param r [in] record
inline std::string label(const Record& r) { return r.backend + ":" + r.kernel; }

/// @brief A kit kernel (not a baseline) that ran on a GPU and matched the oracle. @param r [in] record
inline bool ok_gpu_kit(const Record& r) { return r.status == "ok" && r.gpu && r.is_kit(); }

/// @brief The registered variant a record ran (a forced block size, "@2x3", set aside), or
/// nullptr for a baseline: its lab's metadata (family, roles) says what the targets make of it.
/// @param r [in] record
inline const kit::Variant* variant_of(const Record& r) {
    if (!r.is_kit()) return nullptr;
    return kit::registry().find(r.kernel.substr(0, r.kernel.find('@')), kit::parse_backend(r.backend));
}

/// @brief True if the record's variant belongs to `family` (kit::Variant::family).
/// @param r [in] record  @param family [in] e.g. "csr"
inline bool in_family(const Record& r, const std::string& family) {
    const kit::Variant* v = variant_of(r);
    return v && v->family == family;
}

/// @brief True if the record's variant has role `role` (kit::role). @param r [in] record
/// @param role [in] a kit::role
inline bool has_role(const Record& r, const std::string& role) {
    const kit::Variant* v = variant_of(r);
    return v && v->has_role(role);
}

/// @brief Best record (by `score`) among those passing `keep`; nullptr if none.
/// @param rs [in] records  @param keep [in] filter  @param score [in] larger is better
template <class Keep, class Score>
const Record* best_of(const std::vector<Record>& rs, Keep keep, Score score) {
    const Record* best = nullptr;
    for (const Record& r : rs)
        if (keep(r) && (!best || score(r) > score(*best))) best = &r;
    return best;
}

/// @brief Prints target checks as PASS, MISS, CACHE or NOT RUN and counts them.
class Checker {
public:
    /// @param out [in] where the lines go
    explicit Checker(std::ostream& out) : out_(out) {}
    /// @brief A check on the figures of `r`: a figure above its ceiling is served from cache,
    /// so it cannot pass a target on DRAM bandwidth; it is reported, and counted as not run.
    /// @param ok [in] met  @param what [in] the target  @param figures [in] what was measured
    /// @param r [in] the record the figures come from, if one
    void check(bool ok, const std::string& what, const std::string& figures, const Record* r = nullptr) {
        if (ok && r && r->pct_ceiling > 100.0) {
            out_ << "  [CACHE]   " << what << ": " << figures << fmt(" at %.1f%% of its ceiling", r->pct_ceiling)
                 << ": served from cache, not a DRAM figure\n";
            ++tally.not_run;
            return;
        }
        out_ << (ok ? "  [PASS]    " : "  [MISS]    ") << what << ": " << figures << "\n";
        ++(ok ? tally.pass : tally.miss);
    }
    /// @brief A target with nothing to measure. @param what [in] target  @param why [in] reason
    void not_run(const std::string& what, const std::string& why) {
        out_ << "  [NOT RUN] " << what << ": " << why << "\n";
        ++tally.not_run;
    }
    TargetTally tally;  ///< counts so far

private:
    std::ostream& out_;
};

/// @brief Records grouped by matrix and precision, groups in run order. @param records [in] results
inline std::vector<std::vector<const Record*>> groups_of(const std::vector<Record>& records) {
    std::vector<std::vector<const Record*>> groups;
    std::map<std::string, std::size_t> index;
    for (const Record& r : records) {
        auto [it, fresh] = index.emplace(group_key(r), groups.size());
        if (fresh) groups.emplace_back();
        groups[it->second].push_back(&r);
    }
    return groups;
}

/// @brief Copies of one group's records. @param g [in] group
inline std::vector<Record> copy_group(const std::vector<const Record*>& g) {
    std::vector<Record> v;
    for (const Record* r : g) v.push_back(*r);
    return v;
}

/// @brief Lab 08's targets: the model's pick against the measured best kit kernel and two
/// simple rules, and its prediction error per kernel. @param c [in,out] checker
/// @param groups [in] records by matrix and precision
void check_format_choice(Checker& c, const std::vector<std::vector<const Record*>>& groups);

}  // namespace bench
