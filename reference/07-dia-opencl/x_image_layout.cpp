// Lab 07, step 5 (host part): the shape of the image that holds x. See handouts/07-dia-opencl.md.
#include <string>

#include "dia_path.hpp"

namespace kit::dia_path {

XImageLayout plan_x_image(index_t cols, const ImageLimits& limits) {
    // BEGIN SOLUTION(step 5: narrowest power-of-two width w with w * w >= pixels; refuse what cannot fit)
    // STARTER: kit::todo("07-dia-opencl", 5, "dia_path::plan_x_image");
    const std::string fallback = "; step 5 cannot run there, use step 4 (dia-vec4), which reads x from a buffer";
    if (!limits.supported)
        throw BackendUnavailable("OpenCL device " + limits.device +
                                 " has no image support (CL_DEVICE_IMAGE_SUPPORT is false)" + fallback);
    const count_t pixels = cols > 0 ? (static_cast<count_t>(cols) + 3) / 4 : 1;
    XImageLayout l;
    while (static_cast<count_t>(l.width) * l.width < pixels && 2 * static_cast<count_t>(l.width) <= limits.max_width) {
        l.width *= 2;
        ++l.log2_width;
    }
    l.width_mask = l.width - 1;
    const count_t height = (pixels + l.width - 1) / l.width;
    if (height > limits.max_height)
        throw BackendUnavailable("x has " + std::to_string(cols) + " values = " + std::to_string(pixels) +
                                 " float4 pixels, which need " + std::to_string(l.width) + " x " +
                                 std::to_string(height) + " pixels, beyond the 2-D image limit " +
                                 std::to_string(limits.max_width) + " x " + std::to_string(limits.max_height) + " of " +
                                 limits.device + fallback);
    l.height = static_cast<index_t>(height);
    return l;
    // END SOLUTION
}

}  // namespace kit::dia_path
