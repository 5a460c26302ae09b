/**
 * Base forms of common English verbs: a clause that opens with one (after a frame such as
 * "Then" or "In Alfama,") is an imperative, advice from the assistant or an instruction the
 * person gives themselves. Written out by hand: frequent everyday, household, travel, money,
 * health and software verbs.
 */
export const BASE_VERBS: ReadonlySet<string> = new Set(
  (
    'accept add adjust adopt aim allow apply approach arrange ask assign attach automate avoid back bake balance ban batch ' +
    'begin benchmark bill block boil book borrow bring browse budget build bump buy calculate call cancel cap carry catch ' +
    'change charge chat check choose chop claim clean clear click close collect combine come commit compare compile ' +
    'complete compress configure confirm connect consider contact continue convert cook cool copy correct count cover ' +
    'create crop cube cut deal debug decide declare decline defer define defrost delay delegate delete deliver deploy ' +
    'describe design detach dig disable discard discuss divide do document donate download drain draw drink drive drop ' +
    'dry dump eat edit email emphasise emphasize empty enable encrypt end enjoy enter estimate exclude expand explain ' +
    'export extend feed fetch file fill film filter find finish fit fix flag flash focus fold follow forget format ' +
    'forward frame freeze fry gather get give go grab grind group grow handle hang heat help hide highlight hire hold ' +
    'host identify ignore import improve include increase index inform insist inspect install insure interview introduce ' +
    'invest invite iron join jog keep kill label launch lay lead learn lease leave lend let lift limit line link list ' +
    'listen load lock log look lower maintain make manage map mark measure meet mention merge migrate mix monitor mount ' +
    'move mow name negotiate note notify offer open opt order organise organize orient outsource pace pack paint park ' +
    'parse pass paste patch pause pay pick pin place plan plant play plug polish post pour practise practice prepare ' +
    'present press price print prioritise prioritize profile protect prune publish pull pump push put query raise read ' +
    'rebase reboot recheck record recycle reduce refactor refill register reheat reject relax release reload remember ' +
    'remind remove rename renew rent reorder repaint repair repeat replace reply report repot request reserve reset ' +
    'resize rest restart restore retry return reuse review revise rewrite ride rinse roast rotate round run sand save ' +
    'say scale schedule scrub seal search season secure select sell send separate serve set settle share ship shorten ' +
    'show shred sign simplify skip sleep slice slow soak sort sow space speak split spray spread squash stack stage start ' +
    'stay steam step stick stir stop store strain stream stretch stress submit subscribe swap sweep switch sync take talk ' +
    'taper target taste teach tell test text thaw throw tidy tie time toast track trade train transfer translate trim ' +
    'try turn tweak type unplug unsubscribe update upgrade upload use vacuum validate verify visit vote wait walk warm ' +
    'warn wash watch water wear weigh wipe wrap write zip zoom'
  ).split(/\s+/u),
);
