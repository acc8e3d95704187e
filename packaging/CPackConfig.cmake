# SPDX-License-Identifier: Apache-2.0
# `cpack -G DEB` in the build folder makes drasim_<version>_<arch>.deb from the install rules
# (packaging/install.cmake, app/cli, app/gui); packaging/check-deb.sh builds it, runs lintian on
# it and runs the installed programs from its contents.
set(CPACK_PACKAGE_NAME drasim)
set(CPACK_PACKAGE_VENDOR "drasim developers")
set(CPACK_PACKAGE_CONTACT "drasim developers <maintainers@drasim.dev>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "cluster simulator and capacity planner for Kubernetes DRA")
# Debian wants extended description lines under 80 columns.
set(CPACK_PACKAGE_DESCRIPTION
    "drasim loads Kubernetes manifests, server shapes with PCIe, NUMA and
NVLink topology, and workload traces. It allocates devices the way the
Kubernetes scheduler does for Dynamic Resource Allocation, simulates
arrivals, scheduling and completions over time, and reports utilisation,
waits, pending pods and their reasons, placement quality and cost.
.
This package holds the drasim command line, the drasim-gui desktop
application, the hardware catalog, the DeviceClasses of real drivers and
example scenarios.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_INSTALL_DIRECTORY drasim)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# Library dependencies come from dpkg-shlibdeps (libqt6charts6, libqt6svg6 for charts exported as SVG,
# ...); the Qt platform plugins drasim-gui loads at run time are not linked, so they are named here.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(DRASIM_BUILD_GUI)
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
endif()
include(CPack)
