import React, {useCallback, useId, useState, type FormEvent} from 'react';
import clsx from 'clsx';
import {
  appConfig,
  LAUNCH_CODE_ENDING,
  launchCodeUsesLine,
  LAUNCH_CODE_LIMITS,
  LAUNCH_CODE_PATTERN,
  LAUNCH_CODE_STATES,
  LAUNCH_CODE_WORDS,
  launchCodeTerms,
  upgradesFrom,
} from '../../../config';
import type {AdminLaunchCode, LaunchCodeBody} from '../../../config/api';
import {DAY_MS} from '../../../config/dates';
import {formatMoney, parseMoney} from '../../../config/money';
import {PLAN_CURRENCY} from '../../../config/plans';
import type {AdminApi} from '../../../lib/adminApi';
import {useAdminApi} from '../../../lib/useAdminApi';
import Spinner from '../../shared/Spinner';
import Confirm from './Confirm';
import {DataTable, type Column} from './DataTable';
import {ActionResult, ActionScope, useAction} from './useAction';
import {ShowLoaded, useAdminData} from './useAdminData';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

type Discount = 'percent' | 'amount';
const DISCOUNTS: [Discount, string][] = [
  ['percent', 'Percent off'],
  ['amount', 'Amount off'],
];

/** A code's state as a badge ("Used up") and the rest of its sentence, so the word is not said twice. */
function State({code}: {code: AdminLaunchCode}) {
  const sentence = LAUNCH_CODE_STATES[code.state];
  const colon = sentence.indexOf(': ');
  return (
    <>
      <span className={styles.badge} data-tone={code.state === 'active' ? 'good' : 'quiet'}>
        {sentence.slice(0, colon)}
      </span>{' '}
      {sentence.slice(colon + 2)}
    </>
  );
}

/** The plans a buyer can upgrade to (every one some cheaper plan moves up to): what an upgrade code may be for. */
const UPGRADE_TARGETS = appConfig.plans.filter((plan) =>
  appConfig.plans.some((from) => upgradesFrom(from).some((to) => to.id === plan.id)),
);

/** A box of the form with its rule under it, the rule read as the box's description (red when it refuses). */
function Tick({
  label,
  checked,
  onChange,
  ruleId,
  refused = false,
  children,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  ruleId: string;
  refused?: boolean;
  children: React.ReactNode;
}) {
  return (
    <>
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={ruleId}
        />{' '}
        {label}
      </label>
      <p id={ruleId} className={clsx(styles.hint, refused && styles.refusedText)}>
        {children}
      </p>
    </>
  );
}

/** What the seller typed in a whole-number field, or undefined when left empty; NaN when it is not one. */
function wholeNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/**
 * The form for a new code. It checks only what the browser can know (the code's characters, a
 * number where one is asked); the rest (an end date too far ahead, a code already active) is the
 * worker's to refuse, and its words are shown as they come.
 */
function MakeCode({reload}: {reload: () => void}) {
  const api = useAdminApi();
  const id = useId();
  const {busy, outcome, run} = useAction();
  const [code, setCode] = useState('');
  const [discount, setDiscount] = useState<Discount>('percent');
  const [value, setValue] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [endsOn, setEndsOn] = useState('');
  const [firstTimeOnly, setFirstTimeOnly] = useState(false);
  const [forUpgrades, setForUpgrades] = useState(false);
  const [plan, setPlan] = useState('');

  const codeInvalid = code !== '' && !LAUNCH_CODE_PATTERN.test(code);
  const off = discount === 'percent' ? wholeNumber(value) : (parseMoney(value, PLAN_CURRENCY) ?? Number.NaN);
  const offInvalid =
    value.trim() !== '' &&
    (off === undefined || Number.isNaN(off) || off < 1 || (discount === 'percent' ? off > 100 : off > 99_999_999));
  const uses = wholeNumber(maxUses);
  const usesInvalid = uses !== undefined && (Number.isNaN(uses) || uses < 1 || uses > LAUNCH_CODE_LIMITS.maxUses);
  // The worker refuses both together (a past buyer is no first-time one): said here, before sending.
  const bothBoxes = firstTimeOnly && forUpgrades;
  const ready = LAUNCH_CODE_PATTERN.test(code) && value.trim() !== '' && !offInvalid && !usesInvalid && !bothBoxes;
  const plans = forUpgrades ? UPGRADE_TARGETS : appConfig.plans;

  /** Another kind of discount: the number typed for the other would mean something else. */
  function pick(kind: Discount) {
    setDiscount(kind);
    setValue('');
  }

  /** An upgrade code is for a plan upgraded to: a plan picked that no one upgrades to is let go. */
  function pickUpgrades(checked: boolean) {
    setForUpgrades(checked);
    if (checked && !UPGRADE_TARGETS.some((target) => target.id === plan)) setPlan('');
  }

  function make(event: FormEvent) {
    event.preventDefault();
    if (!ready || off === undefined) return;
    const body: LaunchCodeBody = {
      code,
      ...(discount === 'percent' ? {percentOff: off} : {amountOff: off}),
      ...(uses !== undefined && {maxUses: uses}),
      // The code works through the whole day the seller picked, as the worker's days are: UTC.
      ...(endsOn && {endsAt: Date.parse(`${endsOn}T00:00:00Z`) + DAY_MS - 1}),
      ...(firstTimeOnly && {firstTimeOnly}),
      ...(forUpgrades && {forUpgrades}),
      ...(plan && {plan}),
    };
    void run(
      // The worker answers the code as the list shows it: the sentence names its terms in the same words.
      async () => {
        const made = await api.createLaunchCode(body);
        return {status: 'made', detail: `Code ${made.code} made: ${launchCodeTerms(made)}.`};
      },
      (answer) => answer.detail,
      reload,
    ).then((worked) => {
      // A new form for the next code: none of this one's limits carried over unseen.
      if (!worked) return;
      setCode('');
      setValue('');
      setMaxUses('');
      setEndsOn('');
      setFirstTimeOnly(false);
      setForUpgrades(false);
      setPlan('');
    });
  }

  const valueId = `${id}-value`;
  return (
    <form className={styles.codeForm} aria-labelledby={`${id}-heading`} onSubmit={make}>
      <h3 id={`${id}-heading`}>Make a code</h3>
      <div className={styles.refund}>
        <div>
          <label htmlFor={`${id}-code`}>Code</label>
          <input
            id={`${id}-code`}
            className={controls.input}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            aria-invalid={codeInvalid}
            aria-describedby={`${id}-code-rule`}
          />
          <p id={`${id}-code-rule`} className={clsx(styles.hint, codeInvalid && styles.refusedText)}>
            {codeInvalid
              ? 'Only letters, digits and dashes, 3 to 40 of them.'
              : forUpgrades
                ? "3 to 40 letters, digits or dashes: what past buyers type on their dashboard's upgrade card."
                : '3 to 40 letters, digits or dashes: what buyers type at checkout.'}
          </p>
        </div>
        <fieldset className={styles.pick}>
          <legend>Discount</legend>
          {DISCOUNTS.map(([kind, label]) => (
            <label key={kind}>
              <input type="radio" name={`${id}-discount`} checked={discount === kind} onChange={() => pick(kind)} />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        <div>
          <label htmlFor={valueId}>
            {discount === 'percent' ? 'Percent off (%)' : `Amount off (${PLAN_CURRENCY.toUpperCase()})`}
          </label>
          <input
            id={valueId}
            className={controls.input}
            inputMode={discount === 'percent' ? 'numeric' : 'decimal'}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            aria-invalid={offInvalid}
            aria-describedby={`${valueId}-rule`}
          />
          <p id={`${valueId}-rule`} className={clsx(styles.hint, offInvalid && styles.refusedText)}>
            {offInvalid ? 'Not ' : ''}
            {discount === 'percent'
              ? `${offInvalid ? 'a' : 'A'} whole number from 1 to 100.`
              : `${offInvalid ? 'an' : 'An'} amount such as ${formatMoney(1000, PLAN_CURRENCY)}, taken off the price once.`}
          </p>
        </div>
        <div>
          <label htmlFor={`${id}-uses`}>Max uses (optional)</label>
          <input
            id={`${id}-uses`}
            className={controls.input}
            inputMode="numeric"
            value={maxUses}
            onChange={(event) => setMaxUses(event.target.value)}
            aria-invalid={usesInvalid}
            aria-describedby={`${id}-uses-rule`}
          />
          <p id={`${id}-uses-rule`} className={clsx(styles.hint, usesInvalid && styles.refusedText)}>
            {usesInvalid ? 'Not a' : 'A'} whole number from 1 to {LAUNCH_CODE_LIMITS.maxUses.toLocaleString('en-US')};
            empty for no limit.
          </p>
        </div>
        <div>
          <label htmlFor={`${id}-ends`}>Ends on (optional)</label>
          <input
            id={`${id}-ends`}
            type="date"
            className={controls.input}
            value={endsOn}
            onChange={(event) => setEndsOn(event.target.value)}
            aria-describedby={`${id}-ends-rule`}
          />
          <p id={`${id}-ends-rule`} className={styles.hint}>
            It works until the end of that day, UTC.
          </p>
        </div>
        <div>
          <label htmlFor={`${id}-plan`}>{forUpgrades ? 'Plan upgraded to' : 'Plan'}</label>
          <select
            id={`${id}-plan`}
            className={controls.input}
            value={plan}
            onChange={(event) => setPlan(event.target.value)}>
            <option value="">{forUpgrades ? 'Any upgrade' : 'Every plan'}</option>
            {plans.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Tick
        label="First-time buyers only"
        checked={firstTimeOnly}
        onChange={setFirstTimeOnly}
        ruleId={`${id}-first-rule`}>
        Stripe takes it only from a Stripe customer with no payment before. Each first purchase makes a new customer, so
        try in test mode whether a returning buyer is refused.
      </Tick>
      <Tick
        label="Past buyers only (an upgrade code)"
        checked={forUpgrades}
        onChange={pickUpgrades}
        ruleId={`${id}-upgrades-rule`}
        refused={bothBoxes}>
        {bothBoxes
          ? LAUNCH_CODE_WORDS.upgradeFirstTime
          : "Typed on the buyer's dashboard, on the upgrade card, never at Stripe's Checkout: the site takes it off an upgrade's price. Not with a country's fair price, nor on seats added."}
      </Tick>
      <div className={styles.actions}>
        <button type="submit" className={controls.primary} disabled={busy || !ready}>
          Make code
        </button>
      </div>
      {busy && <Spinner label="Making the code" />}
      <ActionResult outcome={outcome} />
    </form>
  );
}

/**
 * Launch codes: Stripe promotion codes the seller makes here and buyers type at checkout, or upgrade
 * codes past buyers type on their dashboard, with what each sold. Ending one is confirmed first:
 * no buyer can use it from then on.
 */
export default function LaunchCodes() {
  const api = useAdminApi();
  const loaded = useAdminData(useCallback((admin: AdminApi) => admin.launchCodes(), []));
  const {busy, outcome, run} = useAction();

  const columns: Column<AdminLaunchCode>[] = [
    {label: 'Code', cell: (code) => <span className={styles.code}>{code.code}</span>},
    {label: 'Terms', cell: (code) => launchCodeTerms(code)},
    {label: 'State', cell: (code) => <State code={code} />},
    {label: 'Uses', cell: (code) => launchCodeUsesLine(code)},
    {label: 'Revenue', cell: (code) => formatMoney(code.revenue, code.currency)},
    {
      label: 'Action',
      cell: (code) =>
        // An expired or used-up code Stripe already refuses: nothing to end, and its state says why.
        code.state === 'active' ? (
          <Confirm
            label="End"
            danger
            question={LAUNCH_CODE_ENDING.question(code)}
            disabled={busy}
            onConfirm={() => void run(() => api.endLaunchCode(code.id), LAUNCH_CODE_ENDING.done(code), loaded.reload)}
          />
        ) : (
          '—'
        ),
    },
  ];

  return (
    <ActionScope>
      <section className={styles.panel} aria-labelledby="codes-heading">
        <h2 id="codes-heading">Launch codes</h2>
        <p className={styles.muted}>
          Stripe promotion codes that buyers type at checkout, and upgrade codes that past buyers type on their
          dashboard&apos;s upgrade card; they never stack with a country&apos;s fair price.
        </p>
        <MakeCode reload={loaded.reload} />
        <h3>Codes made</h3>
        <ActionResult outcome={outcome} />
        <ShowLoaded loaded={loaded} label="Loading launch codes">
          {(codes) => (
            <DataTable
              caption="Launch codes"
              columns={columns}
              rows={codes.items}
              rowKey={(code) => code.id}
              empty="No launch codes yet: make one above."
            />
          )}
        </ShowLoaded>
      </section>
    </ActionScope>
  );
}
