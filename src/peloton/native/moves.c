/* peloton.native._moves: the public API's lists of legal moves, built in C.
 *
 * The State API hands out a list of Move objects for every position. Through cffi,
 * building that list costs more than finding the moves (the move ints are unpacked
 * into Python ints, then looked up one by one in the game's table of Moves). This
 * small CPython extension does both steps in one call: it finds the legal moves with
 * the same C rules (mc_legal_index), or plays a move and then finds them
 * (mc_play + mc_legal_index), and fills a new list straight from the table.
 *
 * It holds no rules of its own. When a move is not in the table yet (None there: the
 * bridge builds a rider's moves when they first come up), it answers None and the
 * bridge takes its slower path, which builds them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "mc.h"

typedef struct {
    PyObject_HEAD
    const mc_course *course;
    int32_t *buf;
    int cap;
    int32_t slots;
    PyObject *table; /* list: move index -> Move, or None while not built */
    PyObject *keep;  /* what owns the course and the buffer (kept alive) */
} Lister;

static int lister_init(Lister *self, PyObject *args, PyObject *kwds) {
    PyObject *course, *buf, *table, *keep;
    int cap, slots;
    if (!PyArg_ParseTuple(args, "OOiiO!O", &course, &buf, &cap, &slots, &PyList_Type, &table,
                          &keep))
        return -1;
    if (cap < 1 || slots < 1) {
        PyErr_SetString(PyExc_ValueError, "cap and slots must be positive");
        return -1;
    }
    self->course = PyLong_AsVoidPtr(course);
    self->buf = PyLong_AsVoidPtr(buf);
    if (PyErr_Occurred()) return -1;
    if (self->course == NULL || self->buf == NULL) {
        PyErr_SetString(PyExc_ValueError, "null course or buffer address");
        return -1;
    }
    self->cap = cap;
    self->slots = slots;
    Py_INCREF(table);
    Py_XSETREF(self->table, table);
    Py_INCREF(keep);
    Py_XSETREF(self->keep, keep);
    return 0;
}

static void lister_dealloc(Lister *self) {
    Py_XDECREF(self->table);
    Py_XDECREF(self->keep);
    PyTypeObject *type = Py_TYPE(self);
    type->tp_free((PyObject *)self);
    Py_DECREF(type);
}

/* The list of the n move indexes in the buffer, or None when one is not built. */
static PyObject *listed(Lister *self, int n) {
    if (n < 0) {
        PyErr_SetString(PyExc_RuntimeError, "native move buffer too small");
        return NULL;
    }
    Py_ssize_t size = PyList_GET_SIZE(self->table);
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        int32_t at = self->buf[i];
        PyObject *move = (at >= 0 && at < size) ? PyList_GET_ITEM(self->table, at) : Py_None;
        if (move == Py_None) {
            Py_DECREF(list);
            Py_RETURN_NONE;
        }
        Py_INCREF(move);
        PyList_SET_ITEM(list, i, move);
    }
    return list;
}

static const mc_race *race_at(PyObject *address) {
    const mc_race *r = PyLong_AsVoidPtr(address);
    if (r == NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "null race address");
    return r;
}

/* legal(race_address) -> list of Moves, or None */
static PyObject *lister_legal(Lister *self, PyObject *address) {
    const mc_race *r = race_at(address);
    if (r == NULL) return NULL;
    return listed(self, mc_legal_index(self->course, r, self->buf, self->cap, self->slots));
}

/* play_legal(race_address, move_int) -> the new position's list of Moves, or None */
static PyObject *lister_play_legal(Lister *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "play_legal(race_address, move) takes 2 arguments");
        return NULL;
    }
    mc_race *r = (mc_race *)race_at(args[0]);
    if (r == NULL) return NULL;
    long move = PyLong_AsLong(args[1]);
    if (move == -1 && PyErr_Occurred()) return NULL;
    mc_play(self->course, r, (int32_t)move);
    return listed(self, mc_legal_index(self->course, r, self->buf, self->cap, self->slots));
}

static PyMethodDef lister_methods[] = {
    {"legal", (PyCFunction)lister_legal, METH_O,
     "legal(race_address): the legal Moves of the race there, or None when one is not "
     "built yet."},
    {"play_legal", (PyCFunction)(void (*)(void))lister_play_legal, METH_FASTCALL,
     "play_legal(race_address, move): play the move int (not checked), then as legal()."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot lister_slots[] = {
    {Py_tp_doc, "Lister(course_address, buffer_address, cap, slots, table, keep): the legal "
                "moves of a game's races as lists of its Moves."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, lister_init},
    {Py_tp_dealloc, lister_dealloc},
    {Py_tp_methods, lister_methods},
    {0, NULL},
};

static PyType_Spec lister_spec = {
    "peloton.native._moves.Lister", sizeof(Lister), 0, Py_TPFLAGS_DEFAULT, lister_slots,
};

static struct PyModuleDef moves_module = {
    PyModuleDef_HEAD_INIT, "_moves", "Lists of legal Moves built in C (see moves.c).", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__moves(void) {
    PyObject *module = PyModule_Create(&moves_module);
    if (module == NULL) return NULL;
    PyObject *type = PyType_FromSpec(&lister_spec);
    if (type == NULL || PyModule_AddObject(module, "Lister", type) < 0) {
        Py_XDECREF(type);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
