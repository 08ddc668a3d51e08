// The names of the temporaries onnx-run writes in a folder, ".NAME.onnx-run.XXXXXXXXXXXX.tmp",
// and the clean-up of those a killed run left (io/owned_temp.h says how a temporary is
// owned: its writer holds an flock on it). Folders are given as open descriptors: this
// unit knows nothing of OutputFolder, which uses it when it opens a folder.
#pragma once

#include <string>

namespace onnxrun {

// A fresh temporary's name for the file `name`: twelve letters or digits, different in
// every call of every process. A long `name` is cut so that the whole fits in NAME_MAX
// (so two long names that start alike share a prefix; the lock tells whose file it is).
std::string temp_name_for(const std::string& name);
// Whether `entry` is such a name (for the file `name`, when not empty).
bool is_temp_name(const std::string& entry, const std::string& name);
// Whether `entry` in the folder `dir` is the file open as `fd` (not a name swapped since).
bool name_leads_to(int dir, const std::string& entry, int fd);

// Removes the temporaries in the folder open as `folder` whose lock can be taken: all of
// them, or only those for the file `name` when it is given. Best effort: what cannot be
// opened, locked or removed stays. Never a live writer's, never a file because some
// process id looks dead, never a file of another pattern.
void remove_stale_temporaries(int folder, const std::string& name = "");

}  // namespace onnxrun
