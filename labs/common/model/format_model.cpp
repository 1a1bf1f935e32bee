#include "model/format_model.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <utility>
#include <sstream>

#include "core/kit_error.hpp"
#include "registry/variants.hpp"

namespace kit::model {

index_t RowLengthPmf::longest() const {
    for (std::size_t i = rows_with.size(); i-- > 0;)
        if (rows_with[i] > 0) return static_cast<index_t>(i);
    return 0;
}

double RowLengthPmf::p(index_t i) const {
    if (rows == 0 || i < 0 || static_cast<std::size_t>(i) >= rows_with.size()) return 0;
    return static_cast<double>(rows_with[static_cast<std::size_t>(i)]) / rows;
}

std::string to_string(ModelFormat f) {
    switch (f) {
        case ModelFormat::coo:
            return "coo";
        case ModelFormat::csr:
            return "csr";
        case ModelFormat::ell:
            return "ell";
        case ModelFormat::hyb:
            return "hyb";
        case ModelFormat::dia:
            return "dia";
        case ModelFormat::bcsr:
            return "bcsr";
        case ModelFormat::dense:
            return "dense";
    }
    return "?";
}

DeviceParams h100_defaults() { return DeviceParams{}; }

namespace {

// The numeric keys, in the file's order: each names the DeviceParams member it sets.
const std::vector<std::pair<std::string, double DeviceParams::*>>& real_keys() {
    static const std::vector<std::pair<std::string, double DeviceParams::*>> keys = {
        {"bandwidth_gbs", &DeviceParams::bandwidth_gbs},
        {"transaction_bytes", &DeviceParams::transaction_bytes},
        {"clock_ghz", &DeviceParams::clock_ghz},
        {"launch_us", &DeviceParams::launch_us},
        {"step_ns", &DeviceParams::step_ns},
        {"warp_step_ns", &DeviceParams::warp_step_ns},
        {"float_step_share", &DeviceParams::float_step_share},
        {"row_ns", &DeviceParams::row_ns},
        {"block_row_ns", &DeviceParams::block_row_ns},
        {"atomic_ns", &DeviceParams::atomic_ns},
        {"sector_gbs", &DeviceParams::sector_gbs},
        {"atomic_lanes_per_ns", &DeviceParams::atomic_lanes_per_ns},
        {"narrow_gbs", &DeviceParams::narrow_gbs},
        {"coo_gbs", &DeviceParams::coo_gbs},
        {"merge_gbs", &DeviceParams::merge_gbs},
        {"csr5_gbs", &DeviceParams::csr5_gbs},
        {"line_bytes", &DeviceParams::line_bytes},
        {"line_atomic_ns_float", &DeviceParams::line_atomic_ns_float},
        {"line_atomic_ns_double", &DeviceParams::line_atomic_ns_double},
        {"latency_ns", &DeviceParams::latency_ns},
        {"loop_overlap_power", &DeviceParams::loop_overlap_power},
        {"l1_bytes", &DeviceParams::l1_bytes},
        {"gather_gbs", &DeviceParams::gather_gbs},
        {"pcie_gbs", &DeviceParams::pcie_gbs}};
    return keys;
}

// The whole-number keys (counts of SMs, lanes, threads), in the file's order.
const std::vector<std::pair<std::string, int DeviceParams::*>>& count_keys() {
    static const std::vector<std::pair<std::string, int DeviceParams::*>> keys = {
        {"sms", &DeviceParams::sms},
        {"lanes_per_sm", &DeviceParams::lanes_per_sm},
        {"warp", &DeviceParams::warp},
        {"warps_per_sm", &DeviceParams::warps_per_sm}};
    return keys;
}

// A kernel's fixed cost is the key "fixed_us_float.<kernel>" or "fixed_us_double.<kernel>".
const std::vector<std::pair<std::string, std::map<std::string, double> DeviceParams::*>>& fixed_keys() {
    static const std::vector<std::pair<std::string, std::map<std::string, double> DeviceParams::*>> keys = {
        {"fixed_us_float.", &DeviceParams::fixed_us_float}, {"fixed_us_double.", &DeviceParams::fixed_us_double}};
    return keys;
}

// The fixed-cost map a key "<prefix><kernel>" names, with the kernel's name; nullptr if none.
std::map<std::string, double>* fixed_map(DeviceParams& p, const std::string& key, std::string& kernel) {
    for (const auto& [prefix, member] : fixed_keys())
        if (key.size() > prefix.size() && key.compare(0, prefix.size(), prefix) == 0) {
            kernel = key.substr(prefix.size());
            return &(p.*member);
        }
    return nullptr;
}

template <typename Member>
auto find_key(const std::vector<std::pair<std::string, Member>>& keys, const std::string& key) {
    return std::find_if(keys.begin(), keys.end(), [&](const auto& k) { return k.first == key; });
}

// Each key names a DeviceParams member; text values are kept whole (the device name has spaces).
void set_param(DeviceParams& p, const std::string& key, const std::string& value, const std::string& path, int line) {
    if (key == "device") {
        p.device = value;
        return;
    }
    std::istringstream in(value);
    double v = 0;
    std::string rest;
    if (!(in >> v) || (in >> rest) || !(v > 0))
        throw InputError(path, line, "'" + key + "' needs one positive number, got '" + value + "'");
    if (const auto real = find_key(real_keys(), key); real != real_keys().end())
        p.*(real->second) = v;
    else if (const auto count = find_key(count_keys(), key); count != count_keys().end())
        p.*(count->second) = static_cast<int>(v);
    else if (std::string kernel; auto* fixed = fixed_map(p, key, kernel))
        (*fixed)[kernel] = v;
    else
        throw InputError(path, line, "unknown key '" + key + "'");
    if (p.sms < 1 || p.lanes_per_sm < 1 || p.warp < 1 || p.warps_per_sm < 1)
        throw InputError(path, line, "'" + key + "' must be at least 1");
}

}  // namespace

DeviceParams read_device_params(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path, 0, "cannot open the device parameter file");
    DeviceParams p;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        const std::size_t start = line.find_first_not_of(" \t\r");
        if (start == std::string::npos || line[start] == '#') continue;
        const std::size_t space = line.find_first_of(" \t", start);
        if (space == std::string::npos) throw InputError(path, n, "expected 'key value'");
        std::string value = line.substr(line.find_first_not_of(" \t", space));
        while (!value.empty() && (value.back() == '\r' || value.back() == ' ')) value.pop_back();
        set_param(p, line.substr(start, space - start), value, path, n);
    }
    return p;
}

void write_device_params(const std::string& path, const DeviceParams& p, const std::string& header) {
    std::ofstream out(path);
    if (!out) throw Error(path + ": cannot write the device parameter file");
    std::istringstream lines(header);
    for (std::string l; std::getline(lines, l);) out << "# " << l << "\n";
    out << "device " << p.device << "\n";
    for (const auto& [key, member] : real_keys()) out << key << " " << p.*member << "\n";
    for (const auto& [key, member] : count_keys()) out << key << " " << p.*member << "\n";
    for (const auto& [prefix, member] : fixed_keys())
        for (const auto& [kernel, us] : p.*member) out << prefix << kernel << " " << us << "\n";
    if (!out) throw Error(path + ": write failed");
}

DeviceParams load_device_params(std::string* source) {
    const char* path = std::getenv("KIT_DEVICE_PARAMS");
    if (path && *path) {
        if (source) *source = std::string("file ") + path;
        return read_device_params(path);
    }
    if (source) *source = "H100 defaults (set KIT_DEVICE_PARAMS to a file from spmv-kit calibrate)";
    return h100_defaults();
}

namespace {
FormatModelHook& hook_slot() {
    static FormatModelHook hook;
    return hook;
}
}  // namespace

void set_format_model(FormatModelHook hook) { hook_slot() = std::move(hook); }

ModelReport predict_formats(const CooMatrix& A, Precision precision, const DeviceParams& params) {
    (void)registry();  // every lab registers itself, lab 08's model included, on first use
    if (!hook_slot()) throw Error("the format model (lab 08-format-choice) is not built into this binary");
    return hook_slot()(A, precision, params);
}

}  // namespace kit::model
