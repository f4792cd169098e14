"""Double-dummy analysis of Hokm positions: every hand open, best play by all.

The numba kernels live in :mod:`hokm_sim.dd.solver`, apart from
``hokm_sim/engine`` so that editing the solver never invalidates compiled
engines that do not use it; :mod:`hokm_sim.dd.api` is the Python layer
(validation, tables, many deals at once).
"""
