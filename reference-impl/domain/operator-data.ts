import type { FleetVehicle, Location, RatePlan } from '../../contract/types.ts';
import type {
  BranchFixture,
  ClientFixture,
  ExtraFixture,
  LocationFixture,
  OneWayFeeFixture,
  PartnerFixture,
  RatePlanFixture,
  VehicleFixture,
} from '../../fixtures/types.ts';
import { vnd } from './money.ts';

export interface OperatorRecords {
  branches: readonly BranchFixture[];
  oneWayFees: readonly OneWayFeeFixture[];
  locations: readonly LocationFixture[];
  vehicles: readonly VehicleFixture[];
  extras: readonly ExtraFixture[];
  partners: readonly PartnerFixture[];
  clients: readonly ClientFixture[];
  ratePlans: readonly RatePlanFixture[];
}

/** Spec 2.5: the partner specification a listed vehicle must have. */
const PARTNER_SPEC_FIELDS = [
  'sippCode',
  'doors',
  'airConditioning',
  'maxPassengers',
  'transmission',
  'fuelType',
] as const;

export type VehicleStanding = 'unknown' | 'unpublished' | 'incomplete' | 'listed';

/** The operator data, read-only, with the public shapes of spec 2.5 to 2.7 derived once. */
export class OperatorData {
  private readonly locationsByCode = new Map<string, LocationFixture>();
  private readonly vehiclesByCode = new Map<string, VehicleFixture>();
  private readonly publicVehicles = new Map<string, FleetVehicle>();
  private readonly publicLocations = new Map<string, Location>();
  private readonly fees = new Map<string, number>();
  private readonly listedByLocation = new Map<string, readonly VehicleFixture[]>();
  readonly extras: ReadonlyMap<string, ExtraFixture>;
  readonly partners: ReadonlyMap<string, PartnerFixture>;

  constructor(readonly data: OperatorRecords) {
    for (const l of data.locations) this.locationsByCode.set(l.locationCode, l);
    for (const v of data.vehicles) this.vehiclesByCode.set(v.vehicleCode, v);
    for (const f of data.oneWayFees) this.fees.set(`${f.fromBranch}>${f.toBranch}`, f.amountVnd);
    this.extras = new Map(data.extras.map((e) => [e.code, e]));
    this.partners = new Map(data.partners.map((p) => [p.partnerId, p]));
    // Frozen: shared by every answer, and their serialized text is remembered (http/availability-json.ts).
    for (const v of data.vehicles) this.publicVehicles.set(v.vehicleCode, deepFreeze(toFleetVehicle(v)));
    for (const l of data.locations) if (l.active) this.publicLocations.set(l.locationCode, deepFreeze(toLocation(l)));
  }

  /** An active location, or undefined (unknown and inactive are the same to partners, spec 4.12). */
  activeLocation(code: string): LocationFixture | undefined {
    const l = this.locationsByCode.get(code);
    return l?.active ? l : undefined;
  }

  /** Any location of the operator, inactive ones included (for a fault that forgets the difference). */
  anyLocation(code: string): LocationFixture | undefined {
    return this.locationsByCode.get(code);
  }

  listLocations(): Location[] {
    return [...this.publicLocations.values()];
  }

  publicLocation(code: string): Location | undefined {
    return this.publicLocations.get(code);
  }

  vehicle(code: string): VehicleFixture | undefined {
    return this.vehiclesByCode.get(code);
  }

  standing(code: string): VehicleStanding {
    const v = this.vehiclesByCode.get(code);
    if (!v) return 'unknown';
    if (!v.published) return 'unpublished';
    return isComplete(v) ? 'listed' : 'incomplete';
  }

  /** Spec 2.5: only published vehicles with a complete partner specification are returned. */
  listVehicles(): FleetVehicle[] {
    return this.data.vehicles
      .filter((v) => this.standing(v.vehicleCode) === 'listed')
      .map((v) => this.fleetVehicle(v.vehicleCode));
  }

  /** The listed vehicles offered at a pickup location, in fleet order: an index made once per location. */
  listedAt(locationCode: string): readonly VehicleFixture[] {
    let listed = this.listedByLocation.get(locationCode);
    if (!listed) {
      listed = this.data.vehicles.filter(
        (v) => this.standing(v.vehicleCode) === 'listed' && v.locationCodes.includes(locationCode),
      );
      // Bounded by the operator's locations: only a known location's list is kept.
      if (this.locationsByCode.has(locationCode)) this.listedByLocation.set(locationCode, listed);
    }
    return listed;
  }

  fleetVehicle(code: string): FleetVehicle {
    const v = this.publicVehicles.get(code);
    if (!v) throw new Error(`no vehicle ${code}`);
    return v;
  }

  /** One-way fee in VND between two branches: 0 within one branch, null when one-way is not offered. */
  oneWayFee(fromBranch: string, toBranch: string): number | null {
    if (fromBranch === toBranch) return 0;
    return this.fees.get(`${fromBranch}>${toBranch}`) ?? null;
  }

  plansOf(partnerId: string): RatePlanFixture[] {
    return this.data.ratePlans.filter((p) => p.partnerId === partnerId);
  }

  /** Spec 2.7: the partner's approved, enabled plans valid on the given local date. */
  listedRatePlans(partnerId: string, today: string): RatePlan[] {
    return this.plansOf(partnerId)
      .filter((p) => p.approval === 'approved' && p.enabled && withinValidity(p, today))
      .map((p) => ({
        accountCode: p.accountCode,
        rateCode: p.rateCode,
        rateType: p.rateType,
        currency: p.currency,
        validFrom: p.validFrom,
        validTo: p.validTo,
        status: 'active',
      }));
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export function withinValidity(plan: RatePlanFixture, date: string): boolean {
  return (plan.validFrom === null || plan.validFrom <= date) && (plan.validTo === null || date <= plan.validTo);
}

function isComplete(v: VehicleFixture): boolean {
  return v.dataQualityStatus !== 'incomplete' && PARTNER_SPEC_FIELDS.every((f) => v[f] !== null);
}

function toFleetVehicle(v: VehicleFixture): FleetVehicle {
  const missingFields = PARTNER_SPEC_FIELDS.filter((f) => v[f] === null);
  return {
    vehicleCode: v.vehicleCode,
    sippCode: v.sippCode,
    sippDescription: v.sippDescription,
    make: v.make,
    model: v.model,
    displayName: v.displayName,
    rocketClass: v.rocketClass,
    rocketCategory: v.rocketCategory,
    bodyType: v.bodyType,
    maxPassengers: v.maxPassengers,
    doors: v.doors,
    airConditioning: v.airConditioning,
    transmission: v.transmission,
    driveType: v.driveType,
    fuelType: v.fuelType,
    baggage: v.baggage,
    minDriverAge: v.minDriverAge,
    securityDeposit: vnd(v.securityDepositVnd),
    mileagePolicy: {
      includedKmPerDay: v.includedKmPerDay,
      excessFeePerKm: v.excessFeePerKmVnd === null ? null : vnd(v.excessFeePerKmVnd),
    },
    images: [...v.images],
    locationCodes: [...v.locationCodes],
    status: 'available',
    dataQuality: { status: v.dataQualityStatus, missingFields },
  };
}

function toLocation(l: LocationFixture): Location {
  return {
    locationCode: l.locationCode,
    name: l.name,
    nameLocal: l.nameLocal,
    locationType: l.locationType,
    countryCode: l.countryCode,
    city: l.city,
    address: l.address,
    coordinates: l.coordinates,
    timezone: l.timezone,
    iataCode: l.iataCode,
    capabilities: { ...l.capabilities },
    openingHours: l.openingHours,
    afterHoursPolicy: l.afterHoursPolicy,
    branchCode: l.branchCode,
  };
}
