// Lab 08 registers no kernel of its own: it installs its model (format_choice.hpp) as the
// one `spmv-kit info` and `spmv-kit run --format auto` call, through labs/common/model/format_model.hpp,
// and offers its calibration as `spmv-kit calibrate` (calibrate.hpp).
#include "calibrate.hpp"
#include "format_choice.hpp"
#include "registry/variants.hpp"

namespace kit {

void register_lab_08_format_choice(Registry& r) {
    model::set_format_model(model::model_report);
    r.add_tool(model::calibrate_tool());
}

}  // namespace kit
