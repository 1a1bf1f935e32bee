// Lab 07, step 5 (host part): the shape of the image that holds x. See handouts/07-dia-opencl.md.
#include <string>

#include "dia_path.hpp"

namespace kit::dia_path {

XImageLayout plan_x_image(index_t cols, const ImageLimits& limits) {
    // TODO(07-dia-opencl step 5): narrowest power-of-two width w with w * w >= pixels; refuse what cannot fit
    kit::todo("07-dia-opencl", 5, "dia_path::plan_x_image");
}

}  // namespace kit::dia_path
