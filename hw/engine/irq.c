/*
 * IRQ controller (endpoint.md section 6): one FIFO of 16 claims fed by six
 * sources. An operation whose event is enabled reserves a credit before it
 * starts (queued + reserved <= 16), so a claim is never lost; overflow is a
 * diagnostic that only a broken producer could raise.
 */
#include <string.h>

#include "engine_internal.h"

void oe_irq_reset(OeEngine *e)
{
    bool level = e->irq.level;
    memset(&e->irq, 0, sizeof(e->irq));
    e->irq.level = level;   /* update_level reports the edge */
}

bool oe_irq_credit_free(const OeEngine *e)
{
    return e->irq.count + e->irq.reserved < OE_IRQ_FIFO_DEPTH;
}

bool oe_irq_event_enabled(const OeEngine *e, unsigned source)
{
    return (oe_reg(e, OE_IRQ_EVENT_ENABLE) >> source) & 1;
}

bool oe_irq_reserve(OeEngine *e)
{
    if (!oe_irq_credit_free(e)) {
        return false;
    }
    e->irq.reserved++;
    return true;
}

void oe_irq_commit(OeEngine *e, uint8_t source, uint16_t peer, bool reserved)
{
    OeIrq *q = &e->irq;

    if (reserved) {
        q->reserved--;
    } else if (!oe_irq_credit_free(e)) {
        q->overflow = true;
        return;
    }
    if (q->count == OE_IRQ_FIFO_DEPTH) {
        q->overflow = true;
        return;
    }
    OeIrqEntry *ent = &q->fifo[(q->head + q->count) % OE_IRQ_FIFO_DEPTH];
    ent->source = source;
    ent->peer_idx = peer;
    ent->sequence = q->next_seq++;
    q->count++;
}

static bool irq_line(const OeEngine *e)
{
    return (oe_reg(e, OE_IRQ_CONTROL) & OE_IRQ_CONTROL_GLOBAL_ENABLE_MASK) &&
           e->irq.count > 0;
}

void oe_irq_update_level(OeEngine *e, bool pulse)
{
    bool level = irq_line(e);

    if (level != e->irq.level || (pulse && level)) {
        e->irq.level = level;
        if (e->ops.set_irq) {
            e->ops.set_irq(e->opaque, level);
        }
    }
}

uint32_t oe_irq_status(const OeEngine *e)
{
    const OeIrq *q = &e->irq;
    uint32_t v = 0;

    v |= q->count ? OE_IRQ_STATUS_CLAIM_PENDING_MASK : 0;
    v |= oe_irq_credit_free(e) ? 0 : OE_IRQ_STATUS_CREDIT_FULL_MASK;
    v |= q->overflow ? OE_IRQ_STATUS_OVERFLOW_MASK : 0;
    v |= q->invalid_complete ? OE_IRQ_STATUS_INVALID_COMPLETE_MASK : 0;
    v |= irq_line(e) ? OE_IRQ_STATUS_IRQ_ASSERTED_MASK : 0;
    v |= (uint32_t)q->count << OE_IRQ_STATUS_FIFO_LEVEL_SHIFT;
    v |= (uint32_t)q->reserved << OE_IRQ_STATUS_RESERVED_COUNT_SHIFT;
    return v;
}

static uint32_t claim_word(const OeIrqEntry *ent)
{
    return (uint32_t)ent->peer_idx << OE_IRQ_CLAIM_PEER_IDX_SHIFT |
           (uint32_t)ent->source << OE_IRQ_CLAIM_SOURCE_SHIFT |
           (uint32_t)ent->sequence << OE_IRQ_CLAIM_SEQUENCE_SHIFT |
           OE_IRQ_CLAIM_VALID_MASK;
}

uint32_t oe_irq_claim(const OeEngine *e)
{
    return e->irq.count ? claim_word(&e->irq.fifo[e->irq.head]) : 0;
}

static void irq_complete(OeEngine *e, uint32_t word)
{
    OeIrq *q = &e->irq;

    if (q->count && word == claim_word(&q->fifo[q->head])) {
        q->head = (q->head + 1) % OE_IRQ_FIFO_DEPTH;
        q->count--;
        /* One more message for edge-triggered delivery if claims remain. */
        oe_irq_update_level(e, true);
    } else {
        q->invalid_complete = true;
    }
}

void oe_irq_control_written(OeEngine *e)
{
    if (oe_reg(e, OE_IRQ_CONTROL) & OE_IRQ_CONTROL_CLEAR_ERRORS_MASK) {
        e->irq.overflow = false;
        e->irq.invalid_complete = false;
        oe_reg_clear_bits(e, OE_IRQ_CONTROL, OE_IRQ_CONTROL_CLEAR_ERRORS_MASK);
    }
}

void oe_irq_complete_written(OeEngine *e)
{
    uint32_t word = oe_reg(e, OE_IRQ_COMPLETE);

    if (word & OE_IRQ_COMPLETE_VALID_MASK) {
        irq_complete(e, word);
        oe_reg_clear_bits(e, OE_IRQ_COMPLETE, OE_IRQ_COMPLETE_VALID_MASK);
    }
}
