"""A numpy array's data pointer inside compiled code: how the generic engine hands a bot
its arrays.

The generic engine (:mod:`hokm_sim.bots.called`) calls each bot through a function
pointer. numba passes an array to such a call as seven machine words (its meminfo,
parent, size, item size, data pointer, shape and stride); a bot's four arrays made a
decision's call cost about three times what four plain pointers cost. So the engine
passes :func:`address` of each array, and the bot's own compiled unit rebuilds the
arrays from the pointers with :func:`at_address` and their fixed sizes
(:mod:`hokm_sim.engine.view`). ``numba.carray`` does the same but needs numba's
reference counting, which the code that plays the hands is compiled without.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def address(typingctx, arr):
    """The pointer to the first element of array ``arr`` (``CPointer`` of its dtype).

    The array must outlive every use of the pointer; the engine's arrays live for the
    whole call that plays the hands."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        return context.make_array(sig.args[0])(context, builder, args[0]).data

    return types.CPointer(arr.dtype)(arr), codegen


@intrinsic
def at_address(typingctx, ptr, size):
    """The 1-d C-contiguous array of ``size`` elements at pointer ``ptr``, owned by no one
    (no reference count): a view of memory the caller keeps alive."""
    if not isinstance(ptr, types.CPointer) or not isinstance(size, types.Integer):
        return None
    arrty = types.Array(ptr.dtype, 1, "C")

    def codegen(context, builder, sig, args):
        data, n = args
        ary = context.make_array(arrty)(context, builder)
        itemsize = context.get_abi_sizeof(context.get_data_type(ptr.dtype))
        intp = context.get_value_type(types.intp)
        n = context.cast(builder, n, sig.args[1], types.intp)
        context.populate_array(
            ary,
            data=data,
            shape=[n],
            strides=[intp(itemsize)],
            itemsize=intp(itemsize),
            meminfo=None,
        )
        return ary._getvalue()

    return arrty(ptr, size), codegen


_BOT_ARGS = (
    types.CPointer(types.int64),
    types.CPointer(types.float64),
    types.CPointer(types.int64),
    types.CPointer(types.uint64),
)


@intrinsic
def call_bot(typingctx, at, view, params, mem, rng):
    """Call the bot decision compiled at address ``at`` (an ``int64``: the machine code of
    a seat module's ``trump_at`` or ``play_at``, see :func:`hokm_sim.bots.called.jit_address`)
    with its arrays' pointers; its answer. The call follows numba's own calling
    convention, so an exception the bot raises (an index out of bounds in the checking
    mode) reaches the caller as from any call. A kernel that takes the addresses as an
    ``int64`` array is typed by plain arrays: it is compiled once for every bot and called
    from Python without the per-call cost of numba's first-class function arguments."""
    if not isinstance(at, types.Integer) or (view, params, mem, rng) != _BOT_ARGS:
        return None

    def codegen(context, builder, sig, args):
        fnty = context.call_conv.get_function_type(types.int64, _BOT_ARGS)
        fn = builder.inttoptr(args[0], fnty.as_pointer())
        status, res = context.call_conv.call_function(builder, fn, types.int64, _BOT_ARGS, args[1:])
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return res

    return types.int64(at, *_BOT_ARGS), codegen
